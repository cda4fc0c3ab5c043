/**
 * Deciding a threat model on a noisy target: a sequential test on repeated
 * runs of the claim, whose error guarantee holds however often it is looked
 * at (docs/frontier.md, "A frontier that holds on a noisy target").
 *
 * The bound is a confidence sequence for a success rate p: Robbins' mixture
 * martingale with a uniform prior. After n runs with w wins,
 *
 *     M_n(p) = ∫ q^w (1-q)^(n-w) dq / (p^w (1-p)^(n-w)) = B(w+1, n-w+1) / (p^w (1-p)^(n-w))
 *
 * is a non-negative martingale with M_0 = 1 under the true p, so by Ville's
 * inequality P(∃n: M_n(p) ≥ 1/α) ≤ α. The set {p: M_n(p) < 1/α} is therefore
 * an interval that holds the true rate at every n at once with probability
 * ≥ 1 - α: a test may look after every run, stop when it likes (for any
 * reason, the other tasks' outcomes included) and still be wrong with
 * probability ≤ α. No Bonferroni split over looks is needed, nor a schedule
 * fixed in advance; batches of concurrent runs change nothing. The interval
 * reported is the running intersection over every prefix of the runs, still
 * valid (the true rate is in every one of them), so it only narrows and a
 * decision, once reached, never flips.
 *
 * Why this one: it needs no number of looks fixed in advance (the search
 * does not know how many batches an evaluation will take), and it is cheaper
 * than the textbook alternative, an exact Clopper-Pearson interval with α
 * split over every possible look (Bonferroni): at 95% against a threshold of
 * 0.5 it decides a rate of 0.9 in about 12 runs where that needs 16-19 for
 * 30-100 looks (`npm run bench -- frontier` prints both).
 */

export interface SequentialTest {
  /** 1 - α: the probability that the interval holds the true rate at every look. */
  readonly confidence: number
  /** The rate a threat model must clear to win. */
  readonly threshold: number
  /** Runs after which an evaluation that has not decided stops, undecided. */
  readonly maxRepeats: number
}

/** What a test says of one evaluation: 'loss' is written "lose" in frontier.json. */
export type Decision = 'win' | 'loss' | 'undecided'

export interface RateInterval {
  readonly low: number
  readonly high: number
}

/** log n!, cached: the mixture's normaliser is a binomial coefficient. */
const logFactorials: number[] = [0]
function logFactorial(n: number): number {
  for (let k = logFactorials.length; k <= n; k++) logFactorials.push(logFactorials[k - 1] + Math.log(k))
  return logFactorials[n]
}

/** log B(w+1, n-w+1) = -log(n+1) - log C(n, w). */
function logBeta(wins: number, runs: number): number {
  return -Math.log(runs + 1) - (logFactorial(runs) - logFactorial(wins) - logFactorial(runs - wins))
}

/** log M_n(p): how far the runs so far speak against a true rate p (the sequence excludes p once it reaches log 1/α). */
function logMixture(wins: number, runs: number, p: number): number {
  if (p <= 0) return wins > 0 ? Infinity : logBeta(wins, runs)
  if (p >= 1) return wins < runs ? Infinity : logBeta(wins, runs)
  return logBeta(wins, runs) - (wins * Math.log(p) + (runs - wins) * Math.log1p(-p))
}

/**
 * Where f (convex, negative at `inside`, not at `outside`) crosses zero between them: safeguarded Newton steps
 * (bisection when a step leaves the bracket), to 1e-12. Returns the bracket's outer end, so the reported
 * interval never claims more than the sequence does.
 */
function boundary(f: (p: number) => number, df: (p: number) => number, inside: number, outside: number): number {
  let inn = inside
  let out = outside
  let x = (inn + out) / 2
  for (let i = 0; i < 100 && Math.abs(out - inn) > 1e-12; i++) {
    const fx = f(x)
    if (fx < 0) inn = x
    else out = x
    const step = x - fx / df(x)
    x = Number.isFinite(step) && (step - inn) * (step - out) < 0 ? step : (inn + out) / 2
  }
  return out
}

/** The confidence sequence's interval at one n: {p : M_n(p) < 1/α}, an interval around w/n (log M_n is convex with its minimum there). */
export function mixtureInterval(wins: number, runs: number, alpha: number): RateInterval {
  return { low: lowEnd(wins, runs, alpha), high: highEnd(wins, runs, alpha) }
}

const level = (wins: number, runs: number, alpha: number) => (p: number) => logMixture(wins, runs, p) - Math.log(1 / alpha)
const slope = (wins: number, runs: number) => (p: number) => -wins / p + (runs - wins) / (1 - p)

function lowEnd(wins: number, runs: number, alpha: number): number {
  const f = level(wins, runs, alpha)
  return runs === 0 || wins === 0 || f(0) < 0 ? 0 : boundary(f, slope(wins, runs), wins / runs, 0)
}

function highEnd(wins: number, runs: number, alpha: number): number {
  const f = level(wins, runs, alpha)
  return runs === 0 || wins === runs || f(1) < 0 ? 1 : boundary(f, slope(wins, runs), wins / runs, 1)
}

/** The running intersection of the sequence's intervals over every prefix of these outcomes (in run order). */
export function sequenceInterval(outcomes: readonly boolean[], confidence: number): RateInterval {
  const alpha = 1 - confidence
  const bound = Math.log(1 / alpha)
  let low = 0
  let high = 1
  let wins = 0
  for (let n = 1; n <= outcomes.length; n++) {
    if (outcomes[n - 1]) wins++
    // Only a prefix whose interval excludes the current ends can narrow them: one evaluation each, no root search.
    if (wins / n > low && logMixture(wins, n, low) >= bound) low = Math.max(low, lowEnd(wins, n, alpha))
    if (wins / n < high && logMixture(wins, n, high) >= bound) high = Math.min(high, highEnd(wins, n, alpha))
  }
  return { low, high }
}

/** Win when the interval's lower end clears the threshold, loss when its upper end falls below it, else undecided. */
export function decisionOf(interval: RateInterval, threshold: number): Decision {
  return interval.low > threshold ? 'win' : interval.high < threshold ? 'loss' : 'undecided'
}

/**
 * The test's decision: the first prefix whose interval excludes the threshold decides (win when the rate seen
 * lies above it, loss when below), evaluated at the threshold itself, so no root search stands between the
 * runs and the decision.
 */
export function decide(outcomes: readonly boolean[], test: SequentialTest): Decision {
  const bound = Math.log(1 / (1 - test.confidence))
  let wins = 0
  for (let n = 1; n <= outcomes.length; n++) {
    if (outcomes[n - 1]) wins++
    if (logMixture(wins, n, test.threshold) >= bound) return wins / n > test.threshold ? 'win' : 'loss'
  }
  return 'undecided'
}

/**
 * The fewest further runs after which a decision is possible at all (every one of them a win, or every one a
 * loss), at most `limit`: running fewer cannot decide, so a batch is never smaller than this and never spends
 * runs where no outcome could decide. Returns `limit` when even that many cannot.
 */
export function runsBeforeADecision(outcomes: readonly boolean[], test: SequentialTest, limit: number): number {
  const bound = Math.log(1 / (1 - test.confidence))
  const P = test.threshold
  const wins = outcomes.filter(Boolean).length
  const n = outcomes.length
  for (let k = 1; k < limit; k++) {
    if ((wins + k) / (n + k) > P && logMixture(wins + k, n + k, P) >= bound) return k
    if (wins / (n + k) < P && logMixture(wins, n + k, P) >= bound) return k
  }
  return Math.max(1, limit)
}

/** Checks a test's numbers, naming the one that is wrong (flags and the browser's inputs use it). */
export function testProblem(t: SequentialTest): string | null {
  if (!(t.confidence > 0 && t.confidence < 1)) return `confidence ${t.confidence}: must be above 0 and below 1 (e.g. 0.95)`
  if (!(t.threshold > 0 && t.threshold < 1)) return `threshold ${t.threshold}: must be above 0 and below 1 (e.g. 0.5)`
  if (!(Number.isInteger(t.maxRepeats) && t.maxRepeats >= 1 && t.maxRepeats <= MAX_REPEATS)) {
    return `max repeats ${t.maxRepeats}: must be an integer from 1 to ${MAX_REPEATS.toLocaleString('en-US')}`
  }
  return null
}

/** Runs per threat model at most: the interval of a prefix is recomputed per run, so this keeps a decision to milliseconds. */
export const MAX_REPEATS = 10_000

/** The threshold when none is given: a rate above one half, as the majority verdict without a test. */
export const DEFAULT_THRESHOLD = 0.5
