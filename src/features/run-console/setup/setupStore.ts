/**
 * The run console's setup (target, claim, attacker, threat model), with its
 * actions beside it. Kept in localStorage so a reload keeps the user's work;
 * never a secret (keys and tokens are in secretsStore).
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import {
  defaultSetup,
  draftId,
  emptyEvaluator,
  SetupSchema,
  type AttackerSetup,
  type ClaimDraft,
  type SweepSetup,
  type GenericDraft,
  type LlmEndpoint,
  type Setup,
  type TargetSetup,
  type TaskDraft,
  type ThreatSetup,
} from './setupTypes'

export interface SetupActions {
  setTarget(patch: Partial<TargetSetup>): void
  setOpenAi(patch: Partial<TargetSetup['openai']>): void
  setGeneric(draft: GenericDraft | null): void
  setClaim(claim: ClaimDraft): void
  patchClaim(patch: Partial<Pick<ClaimDraft, 'name' | 'description'>>): void
  addTask(): void
  updateTask(id: string, patch: Partial<Omit<TaskDraft, 'id' | 'evaluator'>> & { evaluator?: Partial<TaskDraft['evaluator']> }): void
  removeTask(id: string): void
  setAttacker(patch: Partial<AttackerSetup>): void
  setServed(patch: Partial<AttackerSetup['served']>): void
  updateTemplate(id: string, patch: Partial<{ name: string; text: string; on: boolean }>): void
  addTemplate(): void
  removeTemplate(id: string): void
  setThreat(patch: Partial<ThreatSetup>): void
  setLlm(which: 'attackerLlm' | 'judgeLlm', patch: Partial<LlmEndpoint>): void
  setSweep(patch: Partial<SweepSetup>): void
  togglePick(index: string): void
  reset(): void
}

export type SetupState = Setup & { readonly actions: SetupActions }

export const useSetup = create<SetupState>()(
  persist(
    (set) => ({
      ...defaultSetup(),
      actions: {
        setTarget: (patch) => set((s) => ({ target: { ...s.target, ...patch } })),
        setOpenAi: (patch) => set((s) => ({ target: { ...s.target, openai: { ...s.target.openai, ...patch } } })),
        setGeneric: (generic) => set((s) => ({ target: { ...s.target, generic } })),
        setClaim: (claim) => set({ claim }),
        patchClaim: (patch) => set((s) => ({ claim: { ...s.claim, ...patch } })),
        addTask: () =>
          set((s) => ({
            claim: { ...s.claim, tasks: [...s.claim.tasks, { id: draftId('t'), goal: '', config: '', evaluator: emptyEvaluator() }] },
          })),
        updateTask: (id, patch) =>
          set((s) => ({
            claim: {
              ...s.claim,
              tasks: s.claim.tasks.map((t) => (t.id !== id ? t : { ...t, ...patch, evaluator: { ...t.evaluator, ...patch.evaluator } })),
            },
          })),
        removeTask: (id) => set((s) => ({ claim: { ...s.claim, tasks: s.claim.tasks.filter((t) => t.id !== id) } })),
        setAttacker: (patch) => set((s) => ({ attacker: { ...s.attacker, ...patch } })),
        setServed: (patch) => set((s) => ({ attacker: { ...s.attacker, served: { ...s.attacker.served, ...patch } } })),
        updateTemplate: (id, patch) =>
          set((s) => ({
            attacker: { ...s.attacker, templates: s.attacker.templates.map((t) => (t.id === id ? { ...t, ...patch } : t)) },
          })),
        addTemplate: () =>
          set((s) => ({
            attacker: {
              ...s.attacker,
              templates: [...s.attacker.templates, { id: draftId('p'), name: 'custom', text: '{goal}', on: true }],
            },
          })),
        removeTemplate: (id) => set((s) => ({ attacker: { ...s.attacker, templates: s.attacker.templates.filter((t) => t.id !== id) } })),
        setThreat: (patch) => set((s) => ({ threat: { ...s.threat, ...patch } })),
        setLlm: (which, patch) => set((s) => ({ threat: { ...s.threat, [which]: { ...s.threat[which], ...patch } } })),
        setSweep: (patch) => set((s) => ({ sweep: { ...s.sweep, ...patch } })),
        togglePick: (index) =>
          set((s) => ({
            sweep: {
              ...s.sweep,
              picked: s.sweep.picked.includes(index) ? s.sweep.picked.filter((i) => i !== index) : [...s.sweep.picked, index],
            },
          })),
        reset: () => set(defaultSetup()),
      },
    }),
    {
      name: 'redscope-run-setup',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s): Setup => ({ v: s.v, target: s.target, claim: s.claim, attacker: s.attacker, threat: s.threat, sweep: s.sweep }),
      // A stored setup that does not parse (older, damaged) is dropped for the defaults, never half-applied.
      merge: (persisted, current) => {
        const parsed = SetupSchema.safeParse(persisted)
        return parsed.success ? { ...current, ...parsed.data } : current
      },
    },
  ),
)

export const setupActions = () => useSetup.getState().actions
