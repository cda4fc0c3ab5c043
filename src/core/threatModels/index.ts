export {
  parseThreatModelsFile,
  THREAT_MODELS_FILE,
  ThreatModelEntrySchema,
  ThreatModelsFileSchema,
  threatModelsFileText,
  type NamedGrants,
  type ThreatModelEntry,
} from './file'
