/** A finished task's evaluation in the live view: the evaluator's scores with their tags, the rationale as text. */
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { evaluationResult } from '../../../../core/engine'
import { SecurityDomainTag } from '../../../../core/tags'
import { taskEvaluation } from '../batchReporter'
import { EvaluationLine } from './EvaluationLine'

afterEach(() => cleanup())

describe('EvaluationLine', () => {
  it('shows the primary score, each sub-score with the tag it pertains to, and the rationale as text', () => {
    const banking = new SecurityDomainTag('banking', new SecurityDomainTag('tools'))
    const e = taskEvaluation(
      evaluationResult({
        success: true,
        primaryScore: { name: 'attack_succeeded', value: 1, securityDomain: null },
        subScores: {
          suite_banking: { name: 'suite_banking', value: 1, securityDomain: banking },
          utility: { name: 'utility', value: 0.5, securityDomain: null },
        },
        rationale: 'security=True <img src=x onerror="window.__pwned=1">\nsecond line',
      }),
    )
    expect(e.subScores).toEqual([
      { key: 'suite_banking', name: 'suite_banking', value: 1, domain: 'banking' },
      { key: 'utility', name: 'utility', value: 0.5, domain: null },
    ])
    render(<EvaluationLine index={3} evaluation={e} />)
    const line = screen.getByLabelText('Evaluation of task 3')
    expect([...line.querySelectorAll('.rc-eval__score')].map((d) => d.textContent)).toEqual([
      'attack_succeeded1',
      'suite_banking1 banking',
      'utility0.500 no domain',
    ])
    expect(line.querySelector('[data-domain="banking"]')).not.toBeNull()
    expect(within(line).getByText(/^security=True <img/)).toBeInTheDocument()
    expect(line.querySelector('img')).toBeNull()
    expect(line.textContent).not.toContain('second line')
  })
})
