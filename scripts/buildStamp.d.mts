import type { Plugin } from 'vite'

export function filesUnder(root: string, dir: string): string[]
export function writeStamp(root: string, stampPath: string, inputs: string[]): Promise<void>
export function buildStampPlugin(options: { root: string; stampFile: string; extraInputs?: () => string[] }): Plugin
export function buildProblem(root: string, stampPath: string): Promise<string | null>
