export type { Report, ReportBestRun, ReportStep, ReportTask, ReportTagPaint, ReportThreatModel } from './reportModel'
export { buildReport, bestRunOf, keyStepsOf, type ReportOptions } from './buildReport'
export { renderReportHtml, reportHtml, duration } from './renderReport'
export { forestSvg, tagPaintOf } from './forestSvg'
