/** Saves text or a data URL as a file through a temporary link (no navigation). */
export function downloadText(fileName: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }))
  downloadUrl(fileName, url)
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function downloadUrl(fileName: string, url: string): void {
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.rel = 'noopener'
  document.body.append(a)
  a.click()
  a.remove()
}

/** A file name made from user text: letters, digits, dashes and underscores only. */
export function safeFileName(name: string, fallback = 'forest'): string {
  const s = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return s || fallback
}
