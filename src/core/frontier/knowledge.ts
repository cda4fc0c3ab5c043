/**
 * What one question (the claim, or one task) knows: the verdicts of the threat
 * models evaluated so far, and what they decide under the capability order.
 * A threat model above a win wins, one below a loss loses; that is the whole
 * inference, and the assumption the search states (attackers are monotone in
 * what they hold).
 */
import { coverKey, coverLeq, type Cover, type Decider } from '../lattice'

export type Verdict = 'win' | 'loss'
/** What an evaluation settled: a verdict, or (on a noisy target) a test that ended undecided, which infers nothing. */
export type Settled = Verdict | 'undecided'

export class Knowledge implements Decider {
  /**
   * For inference only the minimal wins and maximal losses matter: a win
   * above another decides nothing the lower one does not. Pruning keeps each
   * status check to the frontier's size, not the evaluations' count, which
   * is what makes one pass over 351,974 threat models cheap.
   */
  private winList: Cover[] = []
  private lossList: Cover[] = []
  private readonly exact = new Map<string, Settled>()
  /** Evaluations that ended undecided: none without a sequential test, and then status() never looks them up. */
  private undecidedCount = 0

  record(c: Cover, verdict: Settled): void {
    const key = coverKey(c)
    if (this.exact.has(key)) return
    this.exact.set(key, verdict)
    if (verdict === 'undecided') {
      this.undecidedCount++
      return
    }
    if (verdict === 'win') {
      if (this.winList.some((w) => coverLeq(w, c))) return
      this.winList = this.winList.filter((w) => !coverLeq(c, w))
      this.winList.push(c)
    } else {
      if (this.lossList.some((l) => coverLeq(c, l))) return
      this.lossList = this.lossList.filter((l) => !coverLeq(l, c))
      this.lossList.push(c)
    }
  }

  /** What the evaluation of a threat model settled, undefined when it was not evaluated. */
  evaluated(c: Cover): Settled | undefined {
    return this.exact.get(coverKey(c))
  }

  get size(): number {
    return this.exact.size
  }

  aboveWin(c: Cover): boolean {
    return anyLeq(this.winList, c)
  }

  belowLoss(c: Cover): boolean {
    return anyGeq(this.lossList, c)
  }

  undecided(c: Cover): boolean {
    return this.status(c) === 'undecided'
  }

  /** The minimal wins evaluated so far (what inference uses). */
  wins(): readonly Cover[] {
    return this.winList
  }

  /** The maximal losses evaluated so far. */
  losses(): readonly Cover[] {
    return this.lossList
  }

  /**
   * The verdict evaluated or inferred; null while nothing settled it. Where
   * evidence contradicts itself (above a win and below a loss), an evaluated
   * verdict stands, else the win does: a defender is better told too much
   * than too little. 'undecided': evaluated, its test ended undecided, and
   * no verdict elsewhere decides it (the search does not ask for it again).
   */
  status(c: Cover): Settled | null {
    const above = anyLeq(this.winList, c)
    const below = anyGeq(this.lossList, c)
    if (above && below) {
      const own = this.evaluated(c)
      return own === 'win' || own === 'loss' ? own : 'win'
    }
    if (above) return 'win'
    if (below) return 'loss'
    return this.undecidedCount > 0 && this.exact.get(coverKey(c)) === 'undecided' ? 'undecided' : null
  }
}

/** Some a in xs with a ≤ c. Plain loops: this runs once per threat model of the pass. */
function anyLeq(xs: readonly Cover[], c: Cover): boolean {
  for (let k = 0; k < xs.length; k++) {
    const a = xs[k]
    let le = true
    for (let i = 0; i < c.length && le; i++) if ((a[i] & ~c[i]) !== 0) le = false
    if (le) return true
  }
  return false
}

/** Some b in xs with c ≤ b. */
function anyGeq(xs: readonly Cover[], c: Cover): boolean {
  for (let k = 0; k < xs.length; k++) {
    const b = xs[k]
    let le = true
    for (let i = 0; i < c.length && le; i++) if ((c[i] & ~b[i]) !== 0) le = false
    if (le) return true
  }
  return false
}
