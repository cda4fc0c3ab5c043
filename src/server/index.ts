export { createTargetHandler, type TargetServerOptions, type TargetHandler, type ConnectHandler } from './targetHandler'
export { createTargetServer, type TargetServer, type RunningTargetServer } from './targetServer'
export { isLoopbackOrigin, type OriginPolicy } from './cors'
export { manifestOf, type ManifestInfo } from './manifest'
