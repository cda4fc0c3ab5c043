/**
 * The human attacker's prompt in a terminal: shows the pause (the attacker's
 * view only) and reads one line. `\n` in the line stands for a newline; an
 * empty line declines. After a failed run it asks whether to try again.
 */
import { createInterface } from 'node:readline/promises'
import type { Readable, Writable } from 'node:stream'
import { describeEvaluation, describeTrajectory, type HumanPrompter } from '../attackers'

export function ttyPrompter(input: Readable, output: Writable): HumanPrompter & { close(): void } {
  const rl = createInterface({ input, output, terminal: false })
  const lines = rl[Symbol.asyncIterator]()
  const ask = async (question: string): Promise<string> => {
    output.write(question)
    const next = await lines.next()
    if (next.done) throw new Error("the human attacker's input ended")
    return next.value
  }
  return {
    async askInjection(r) {
      const seen = describeTrajectory(r.seen)
      output.write(
        `\n--- run ${r.runNumber}: ${r.kind === 'pre' ? 'before' : 'after'} ${r.controllable.name} ---\n` +
          `goal: ${r.goal}\n${seen ? `so far:\n${seen}\n` : ''}request: ${JSON.stringify(r.request)}\n` +
          `${r.answer === null ? '' : `answer: ${JSON.stringify(r.answer)}\n`}`,
      )
      const line = await ask(`inject into ${r.controllable.name} (empty line: no injection; \\n for a newline)> `)
      return line === '' ? null : line.replace(/\\n/g, '\n')
    },
    async runEnded(end) {
      output.write(`\nrun ${end.runNumber} ended: ${describeEvaluation(end.evaluation)}\n`)
      const again = await ask('another run? [Y/n]> ')
      return /^n/i.test(again.trim())
    },
    close: () => rl.close(),
  }
}
