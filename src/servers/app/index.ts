export { startAppServer, isLoopbackAddress, AppServerError, type AppServerOptions, type RunningAppServer } from './appServer'
export { CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_HEADER } from './contentSecurityPolicy'
export { RESULTS_API } from './resultsApi'
export { resolveUnder, guardedSegments, isInside } from './pathGuard'
