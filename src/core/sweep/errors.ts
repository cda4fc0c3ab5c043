/** A sweep's threat models could not be picked as asked: the message names what and why. */
export class SweepPickError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SweepPickError'
  }
}
