import type { ReactNode } from 'react'

interface FileButtonProps {
  /** The label's class, which styles it as a button or a menu item (its input covers it, invisible). */
  readonly className: string
  readonly children: ReactNode
  readonly accept: string
  /** The input's accessible name. */
  readonly ariaLabel: string
  /** Inside a `<details>` menu: close it once a file is picked. */
  readonly closesMenu?: boolean
  readonly hidden?: boolean
  readonly testId?: string
  readonly onFile: (file: File) => unknown
}

/**
 * A button that picks one file. The input is cleared before the file is handed over, so that picking the same
 * file again (after fixing it on disk) is read again rather than ignored by the browser.
 */
export function FileButton({
  className,
  children,
  accept,
  ariaLabel,
  closesMenu = false,
  hidden = false,
  testId,
  onFile,
}: FileButtonProps) {
  return (
    <label className={className}>
      {children}
      <input
        type="file"
        accept={accept}
        aria-label={ariaLabel}
        hidden={hidden}
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (closesMenu) e.target.closest('details')?.removeAttribute('open')
          if (file) void onFile(file)
        }}
      />
    </label>
  )
}
