export { jsonDeeperThan, JsonTooDeepError, MAX_JSON_DEPTH, parseBoundedJson } from './boundedJson'
