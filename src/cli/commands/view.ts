/**
 * `redscope view [DIR]`: the production app and a results folder, read-only,
 * from one origin (src/servers/app), until interrupted. Prints the address and
 * opens it, on the Results tab that lists the folder's experiments. The token
 * (flag or REDSCOPE_VIEW_TOKEN) is never printed.
 */
import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { AppServerError, isLoopbackAddress, startAppServer, type RunningAppServer } from '../../servers/app'
import { ensureAppBuilt } from '../appBuild'
import { splitList, type CommandArgs } from '../command'
import { DEFAULT_RESULTS_DIR, DEFAULT_VIEW_PORT, type viewOptions } from '../definitions/view'
import { EXIT_OK, UsageError, type CliIo } from '../io'
import { packageRoot } from '../packageRoot'

export async function viewCommand(args: CommandArgs<typeof viewOptions>, io: CliIo): Promise<number> {
  const { options } = args
  const port = portFlag(options.port)
  const host = options.host ?? '127.0.0.1'
  const token = options.token ?? (process.env.REDSCOPE_VIEW_TOKEN || undefined)
  if (!isLoopbackAddress(host) && !token) {
    throw new UsageError(
      `--host ${host} listens beyond this machine: give a token (--token T or $REDSCOPE_VIEW_TOKEN); the browser asks for it as a password`,
    )
  }
  if (options['no-results'] && args.positionals.length > 0) throw new UsageError('give a folder or --no-results, not both')
  const dir = options['no-results'] ? undefined : resolve(args.positionals[0] ?? (process.env.SUPERRED_RESULTS_DIR || DEFAULT_RESULTS_DIR))
  if (dir !== undefined && !(existsSync(dir) && statSync(dir).isDirectory())) {
    throw new UsageError(`no results folder at ${dir} (give DIR, or set $SUPERRED_RESULTS_DIR)`)
  }
  const appDir = await ensureAppBuilt(packageRoot(), io)
  const hosts = splitList(options['allow-host'])
  const serverOptions = { appDir, resultsDir: dir, token, ...(hosts.length > 0 ? { allowedHosts: hosts } : {}) }
  let running: RunningAppServer
  try {
    running = await listen(serverOptions, port, host)
  } catch (e) {
    if (e instanceof AppServerError) throw new UsageError(e.message)
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `cannot listen on ${host}:${port ?? DEFAULT_VIEW_PORT} (${code ?? (e as Error).message})${code === 'EADDRINUSE' ? '; try --port 0' : ''}`,
    )
  }
  // A results folder opens on its experiments; the app alone (npm start) on the designer and its demo.
  const address = dir === undefined ? running.url : `${running.url}results`
  const what = dir === undefined ? 'the app and the demo targets' : `${dir} (read-only)`
  // The address is followed by a space, never by punctuation a terminal would take into the link.
  io.stdout(`serving ${what} at ${address} (Ctrl-C to stop${token ? '; token required: the browser asks for it as a password' : ''})\n`)
  if (!options['no-open']) openBrowser(address, io)
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void running.close().then(done)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return EXIT_OK
}

/** The default port, or any free one when it is taken and no port was asked for (a second `view` still starts). */
async function listen(options: Parameters<typeof startAppServer>[0], port: number | undefined, host: string): Promise<RunningAppServer> {
  try {
    return await startAppServer(options, port ?? DEFAULT_VIEW_PORT, host)
  } catch (e) {
    if (port === undefined && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') return startAppServer(options, 0, host)
    throw e
  }
}

/** The platform's opener, detached: a missing one (a server without a desktop) only says so. */
function openBrowser(url: string, io: CliIo): void {
  const [command, ...args] =
    process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url]
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.on('error', () => io.stderr(`could not open a browser (${command}); open ${url} yourself\n`))
    child.unref()
  } catch {
    io.stderr(`could not open a browser; open ${url} yourself\n`)
  }
}

function portFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--port ${value}: must be a port number (0 for any free port)`)
  return n
}
