// @vitest-environment node
/**
 * deploy/ is wired to the CLI as the CLI expects: the Indexed Job's and the
 * CI matrix's command lines, with each index substituted as Kubernetes and
 * GitHub Actions would, go through the CLI's own parser and shard choice and
 * come out as shard I of N, with distinct folders that the merge reads; the
 * target replicas are the ones the sweep lists, and accept the names it uses.
 * (Their schemas are checked by scripts/lint-deploy.sh.)
 */
import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { hostAllowed } from '../servers/target'
import { compare } from './definitions/compare'
import { frontier } from './definitions/frontier'
import { merge } from './definitions/merge'
import { serveTarget } from './definitions/serveTarget'
import { sweep } from './definitions/sweep'
import { parseCommandLine } from './parse'
import { chooseShard } from './sweepSelection'

const ROOT = join(__dirname, '..', '..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

interface K8sObject {
  kind: string
  metadata: { name: string }
  spec: Record<string, unknown> & { template?: { spec: PodSpec } }
}
interface Container {
  image: string
  command?: string[]
  args?: string[]
  env?: Array<{
    name: string
    value?: string
    valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } }
  }>
  volumeMounts?: Array<{ name: string; mountPath: string }>
}
interface PodSpec {
  containers: Container[]
  volumes?: Array<{ name: string; persistentVolumeClaim?: { claimName: string } }>
}

function manifests(path: string): K8sObject[] {
  return parseAllDocuments(read(path)).map((d) => d.toJS() as K8sObject)
}
const find = (objs: K8sObject[], kind: string) => {
  const o = objs.find((x) => x.kind === kind)
  if (!o) throw new Error(`no ${kind}`)
  return o
}

/** Kubernetes' expansion of `$(VAR)` in command and args: variables the container's env defines; `$$` escapes. */
function expand(arg: string, env: Readonly<Record<string, string>>): string {
  return arg.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string | undefined) =>
    m === '$$' ? '$' : name !== undefined && name in env ? env[name] : m,
  )
}

/** A shell glob of `*` only, as a RegExp over whole paths. */
const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  )

const job = find(manifests('deploy/k8s/sweep-job.yaml'), 'Job')
const pod = job.spec.template!.spec
const container = pod.containers[0]
const N = job.spec.completions as number

/** The pod of index i: its environment as the downward API fills it, its arguments expanded. */
function podOf(i: number) {
  const env: Record<string, string> = {}
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value
    if (e.valueFrom?.fieldRef?.fieldPath === "metadata.annotations['batch.kubernetes.io/job-completion-index']") env[e.name] = String(i)
  }
  const args = container.args!.map((a) => expand(a, env))
  expect(args[0]).toBe('sweep')
  const parsed = parseCommandLine(sweep, args.slice(1))
  return {
    env,
    parsed,
    shard: chooseShard({ shard: parsed.options.shard, shardFromEnv: parsed.options['shard-from-env'], shards: parsed.options.shards }, env),
  }
}

describe('the Kubernetes Indexed Job', () => {
  it('is an Indexed Job with completions = parallelism, the index from the downward API', () => {
    expect(job.spec.completionMode).toBe('Indexed')
    expect(job.spec.parallelism).toBe(N)
    expect(N).toBeGreaterThan(1)
    expect(container.env?.find((e) => e.name === 'JOB_COMPLETION_INDEX')?.valueFrom?.fieldRef?.fieldPath).toBe(
      "metadata.annotations['batch.kubernetes.io/job-completion-index']",
    )
  })

  it('pod I runs shard I of N (completions), each into its own folder on the results volume', () => {
    const outs = new Set<string>()
    for (let i = 0; i < N; i++) {
      const { shard, parsed } = podOf(i)
      expect(shard).toEqual({ index: i, count: N })
      outs.add(parsed.options.out!)
    }
    expect(outs.size).toBe(N)
    const mount = container.volumeMounts!.find((m) => m.name === 'results')!.mountPath
    for (const out of outs) expect(out.startsWith(`${mount}/`)).toBe(true)
  })

  it('lists every target replica, in order, by the names the replicas answer to, with the token they require', () => {
    const objs = manifests('deploy/k8s/target.yaml')
    const sts = find(objs, 'StatefulSet')
    const svc = find(objs, 'Service')
    expect(svc.spec.clusterIP).toBe('None')
    expect(sts.spec.serviceName).toBe(svc.metadata.name)
    const port = (svc.spec.ports as Array<{ port: number }>)[0].port
    const replicas = sts.spec.replicas as number
    const targets = podOf(0).parsed.options.target!
    expect(targets).toEqual(Array.from({ length: replicas }, (_, k) => `http://${sts.metadata.name}-${k}.${svc.metadata.name}:${port}`))
    const server = sts.spec.template!.spec.containers[0]
    expect(server.args![0]).toBe('serve-target')
    const served = parseCommandLine(serveTarget, server.args!.slice(1))
    expect(served.options.port).toBe(String(port))
    // A sweep's target answers at once: the demo's think time is for people watching.
    expect(served.options['think-ms']).toBe('0')
    for (const url of targets) {
      const req = { headers: { host: new URL(url).host } } as unknown as IncomingMessage
      expect(hostAllowed(req, served.options['allow-host']!), url).toBe(true)
    }
    const tokenOf = (c: Container) => c.env!.find((e) => e.name === 'REDSCOPE_TARGET_TOKEN')!.valueFrom!.secretKeyRef
    expect(tokenOf(container)).toEqual(tokenOf(server))
    // Shard I attacks replica I mod R: every replica gets a worker.
    expect(new Set(Array.from({ length: N }, (_, i) => targets[i % targets.length])).size).toBe(Math.min(N, replicas))
  })

  it("the merge Job reads exactly the shards' folders, from the same volume, and writes beside them", () => {
    const merged = find(manifests('deploy/k8s/merge-job.yaml'), 'Job')
    const mpod = merged.spec.template!.spec
    const mc = mpod.containers[0]
    expect(mc.command).toEqual(['/bin/sh', '-c'])
    const line = mc.args![0].split(/\s+/)
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(read('deploy/Dockerfile'))![1]
    expect(line.slice(0, 3)).toEqual(['exec', ...JSON.parse(entry)])
    expect(line[3]).toBe('merge')
    const parsed = parseCommandLine(merge, line.slice(4))
    const outs = Array.from({ length: N }, (_, i) => podOf(i).parsed.options.out!)
    expect(parsed.positionals).toHaveLength(1)
    const pattern = glob(parsed.positionals[0])
    for (const out of outs) expect(out).toMatch(pattern)
    expect(parsed.options.out).not.toMatch(pattern)
    const claim = (p: PodSpec) => p.volumes!.find((v) => v.persistentVolumeClaim)!.persistentVolumeClaim!.claimName
    expect(claim(mpod)).toBe(claim(pod))
    expect(mc.image).toBe(container.image)
  })
})

describe('the GitHub Actions workflow', () => {
  const wf = parseAllDocuments(read('deploy/github/redscope-sweep.yml'))[0].toJS() as {
    env: Record<string, string | number>
    jobs: Record<
      string,
      {
        needs?: string
        strategy?: { matrix: { shard: number[] } }
        steps: Array<{ uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }>
      }
    >
  }
  const shards = Number(wf.env.SHARDS)
  const sweepJob = wf.jobs.sweep

  /** `${{ matrix.shard }}`, `${{ inputs.x }}` and `$VAR` as the runner and the shell would fill them for shard i. */
  function fill(text: string, i: number, inputs: Record<string, string>): string {
    return text
      .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(i))
      .replace(/\$\{\{\s*env\.SHARDS\s*\}\}/g, String(shards))
      .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, k: string) => inputs[k])
  }

  it('has one matrix job per shard, SHARDS of them', () => {
    expect(sweepJob.strategy!.matrix.shard).toEqual(Array.from({ length: shards }, (_, i) => i))
    expect(wf.jobs.merge.needs).toBe('sweep')
  })

  it('job I runs shard I of SHARDS into the folder it uploads, and the merge reads every upload', () => {
    const step = sweepJob.steps.find((s) => s.run?.includes('redscope sweep'))!
    const upload = sweepJob.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!
    const inputs = { claim: 'public/claims/assistant-exfiltration.json', selection: '--all' }
    const names: string[] = []
    for (let i = 0; i < shards; i++) {
      const env: Record<string, string> = { SHARDS: String(shards) }
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = fill(v, i, inputs)
      // The script as the shell sees it: continuation lines joined, variables expanded, words split, quotes removed.
      const script = step
        .run!.replace(/\\\n/g, ' ')
        .split('\n')
        .find((l) => l.includes('redscope sweep'))!
      const words = script
        .replace(/\$(\w+)/g, (_, k: string) => env[k] ?? '')
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/^"(.*)"$/, '$1'))
      expect(words.slice(0, 3)).toEqual(['npx', 'redscope', 'sweep'])
      const parsed = parseCommandLine(sweep, words.slice(3))
      expect(
        chooseShard({ shard: parsed.options.shard, shardFromEnv: parsed.options['shard-from-env'], shards: parsed.options.shards }, env),
      ).toEqual({ index: i, count: shards })
      expect(parsed.options.all).toBe(true)
      expect(fill(upload.with!.path, i, inputs)).toBe(parsed.options.out)
      names.push(fill(upload.with!.name, i, inputs))
    }
    expect(new Set(names).size).toBe(shards)
    const download = wf.jobs.merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!
    for (const name of names) expect(name).toMatch(glob(download.with!.pattern))
    // download-artifact puts each artifact in <path>/<name>: the merge's glob must take exactly those.
    const mergeLine = wf.jobs.merge.steps
      .find((s) => s.run?.includes('redscope merge'))!
      .run!.trim()
      .split(/\s+/)
    const parsed = parseCommandLine(merge, mergeLine.slice(3))
    for (const name of names) expect(`${download.with!.path}/${name}`).toMatch(glob(parsed.positionals[0]))
  })
})

describe('the red team gate workflow', () => {
  const wf = parseAllDocuments(read('deploy/github/redteam-gate.yml'))[0].toJS() as {
    env: Record<string, string>
    jobs: { redteam: { steps: Array<{ id?: string; uses?: string; run?: string; with?: Record<string, string> }> } }
  }
  const steps = wf.jobs.redteam.steps
  const env: Record<string, string> = { ...wf.env }
  /** Each `npx redscope CMD ...` line as the shell sees it: continuations joined, $VARs expanded, quotes removed. */
  const lines = (cmd: string) =>
    steps
      .flatMap((s) => (s.run ?? '').replace(/\\\n/g, ' ').split('\n'))
      .map((l) =>
        l
          .trim()
          .replace(/\s*\|.*$/, '')
          .replace(/\s*&$/, ''),
      )
      .filter((l) => l.startsWith(`npx redscope ${cmd} `))
      .map((l) =>
        l
          .replace(/\$(\w+)/g, (_, k: string) => env[k] ?? `$${k}`)
          .split(/\s+/)
          .map((w) => w.replace(/^"(.*)"$/, '$1'))
          .slice(3),
      )

  it('runs commands the CLI accepts, and compares the downloaded baseline with the results it keeps as the next baseline', () => {
    const [sweepLine] = lines('sweep')
    const [frontierLine] = lines('frontier')
    const [compareLine] = lines('compare')
    const swept = parseCommandLine(sweep, sweepLine)
    const searched = parseCommandLine(frontier, frontierLine)
    const compared = parseCommandLine(compare, compareLine)
    expect(parseCommandLine(serveTarget, lines('serve-target')[0]).positionals).toEqual(['assistant'])
    // Both ways of red teaming write where the compare reads HEAD and the upload takes the baseline from.
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!
    expect([swept.options.out, searched.options.out, upload.with!.path]).toEqual([
      compared.positionals[1],
      compared.positionals[1],
      compared.positionals[1],
    ])
    const fetch = steps.find((s) => s.id === 'baseline')!.run!
    expect(fetch).toContain(`--name ${upload.with!.name} --dir ${compared.positionals[0]}`)
    expect(compared.options['fail-on']).toEqual(['regression'])
    expect(steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'))!.with!.sarif_file).toBe(compared.options.sarif)
    expect(steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))!.with!.report_paths).toBe(compared.options.junit)
    expect(compared.options['sarif-location']).toBe(wf.env.FOREST)
  })
})
