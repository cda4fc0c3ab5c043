/**
 * The app's content security policy. The build puts it in index.html as a
 * <meta> (so a build opened from any static server keeps it), and the app
 * server (`redscope view`, `npm start`) also sends it as a real header, which
 * a <meta> cannot fully replace (frame-ancestors is honoured only in a header).
 *
 * The built app runs no inline script at all: whatever a payload, a model or
 * an imported file smuggles into the DOM cannot execute. Targets and LLM
 * endpoints live at addresses the user types in, so connect-src stays open.
 * No imports: vite.config.ts imports this file, and Vite bundles a config's imports.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // React Flow and the viewer position elements with style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  'connect-src * data: blob:',
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/** Header-only directives: a <meta> policy ignores them. No other site may frame the app (clickjacking). */
export const CONTENT_SECURITY_POLICY_HEADER = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`

/**
 * A static bundle's page (`redscope bundle`, "Download as a site"): the app's
 * policy with no connection at all. Its data comes as scripts from its own
 * folder (script-src 'self', which Chromium also matches on file://), so a
 * bundle on any host can send nothing anywhere.
 */
export const SITE_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace('connect-src * data: blob:', "connect-src 'none'").replace(
  "worker-src 'self' blob:",
  "worker-src 'none'",
)
