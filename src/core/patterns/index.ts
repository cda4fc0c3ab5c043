export { PatternError, trustedPattern, userPattern, type PatternMatch, type TextPattern } from './userPattern'
