/**
 * Where the page's own runs land: IndexedDB, in superred's results format,
 * in the database the results viewer opens as "this browser's runs". One
 * Storage object for the whole page, because the results writer serialises
 * its experiments.json updates per Storage object: two objects over the same
 * database could interleave their read-modify-writes.
 */
import { IndexedDbStorage } from '../adapters/storage/indexedDbStorage'
import { redactingStorage, type Storage } from '../core/results'
import { pageSecrets } from './heldSecrets'

/** This browser's runs: the one name of their database, for the run console that writes and the viewer that reads. */
export const RESULTS_DB = 'redscope-results'
/** Sweep records (which experiments one sweep ran): a separate database, so results trees stay pure superred. */
export const SWEEPS_DB = 'redscope-sweeps'
/** Frontier searches run on the Run page, each kept as its frontier.json (the CLI's format) with an id and a date. */
export const FRONTIERS_DB = 'redscope-frontiers'

let results: IndexedDbStorage | null = null
let sweeps: IndexedDbStorage | null = null
let frontiers: IndexedDbStorage | null = null

export function resultsStorage(): Storage {
  results ??= new IndexedDbStorage(RESULTS_DB)
  return results
}

/** This browser's runs as a run writes them: the keys the page holds are masked out of every file (lib/heldSecrets.ts). */
export function resultsWriter(): Storage {
  return redactingStorage(resultsStorage(), pageSecrets)
}

export function sweepsStorage(): Storage {
  sweeps ??= new IndexedDbStorage(SWEEPS_DB)
  return sweeps
}

export function frontiersStorage(): Storage {
  frontiers ??= new IndexedDbStorage(FRONTIERS_DB)
  return frontiers
}

const SOURCE = encodeURIComponent(`idb:${RESULTS_DB}`)

/** The viewer's address for an experiment of this database (its `?src=` key is `idb:<database>`). */
export function viewerHref(dir: string): string {
  return `/results/${encodeURIComponent(dir)}?src=${SOURCE}`
}

/** A frontier search kept in this browser, opened in the Results tab (painted, with its points linked to their runs). */
export const browserFrontierHref = (id: string) => `/results/frontier?src=${SOURCE}&id=${encodeURIComponent(id)}`

/** The Results tab's list of this database's runs, with their sweeps and zips. */
export const browserRunsHref = () => `/results?src=${SOURCE}`
