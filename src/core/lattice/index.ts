export { coverEquals, coverKey, coverLeq, coverRank, isEmptyCover, ThreatModelLattice, type Cover } from './lattice'
export { compareModels, grantsEqual, grantsLeq, grantsOf, levelOf, type Grants, type Level, type NamedModel } from './order'
export { describeModel } from './words'
