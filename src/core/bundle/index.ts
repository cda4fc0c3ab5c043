export {
  BUNDLE_DATA_DIR,
  BUNDLE_GLOBAL,
  BUNDLE_INDEX_FILE,
  BundleChunkSchema,
  BundleFormatError,
  BundleMetaSchema,
  SITE_VIEWER_FILES,
  chunkFileName,
  dataScriptText,
  parseChunk,
  parseDataScript,
  type BundleChunk,
  type BundleMeta,
} from './format'
export { buildBundle, type BundleOptions, type BundleStats, type BundleWrite } from './build'
export { redactFileText, redactPath, type RedactedFile } from './redactFile'
