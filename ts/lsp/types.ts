/** The few LSP shapes gortex reads and writes (positions are zero-based, characters in UTF-16 units). */

/** A position in a document. */
export interface Position {
  line: number;
  character: number;
}

/** A range in a document. */
export interface Range {
  start: Position;
  end: Position;
}

/** One diagnostic as servers publish it. */
export interface Diagnostic {
  range: Range;
  /** 1 error, 2 warning, 3 information, 4 hint (absent: the server did not say). */
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
  tags?: number[];
  data?: unknown;
  relatedInformation?: unknown[];
}

/** A text edit of one document. */
export interface TextEdit {
  range: Range;
  newText: string;
}

/** An LSP `WorkspaceEdit`. */
export interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: unknown[];
}

/** A command a code action may run on the server. */
export interface Command {
  title: string;
  command: string;
  arguments?: unknown[];
}

/** A code action as servers answer `textDocument/codeAction` (a bare `Command` is one too). */
export interface CodeAction {
  title: string;
  kind?: string;
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  disabled?: { reason: string };
  edit?: WorkspaceEdit;
  command?: Command;
  data?: unknown;
}

/** Severity names by number, and back. */
export const SEVERITY_NAMES = ['error', 'warning', 'information', 'hint'] as const;
/** A severity name. */
export type SeverityName = (typeof SEVERITY_NAMES)[number];

/** The name of a diagnostic's severity (a server that says none means error, as the protocol suggests clients assume). */
export function severityName(severity: number | undefined): SeverityName {
  return SEVERITY_NAMES[(severity ?? 1) - 1] ?? 'error';
}

/** The number of a severity name. */
export function severityNumber(name: SeverityName): number {
  return SEVERITY_NAMES.indexOf(name) + 1;
}
