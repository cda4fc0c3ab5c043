export { foldText, foldWithOrigin, type FoldedText } from './fold'
export { containsText, SubstringIndex, type CommonPiece } from './search'
