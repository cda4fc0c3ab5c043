export { jsonDeeperThan, JsonTooDeepError, MAX_JSON_DEPTH, parseBoundedJson } from './boundedJson'
export { decodeUtf8, firstInvalidUtf8, InvalidUtf8Error } from './utf8'
export { protoKeyPath } from './protoKeys'
export {
  childPath,
  countNodes,
  ENTRY_PAGE,
  entriesOf,
  foldedSummary,
  initiallyOpenPaths,
  isContainer,
  jsonCopyText,
  jsonInString,
  jsonTreeOf,
  scalarText,
  sizeOf,
  JSON_STRING_PARSE_MAX,
  OPEN_DEPTH,
  OPEN_LINE_BUDGET,
  OPEN_NODE_BUDGET,
} from './jsonTree'
export type { JsonContainer } from './jsonTree'
