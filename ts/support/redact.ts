/** Secret redaction for every text gortex sends outside: forge comments, model prompts, scrubbed packs. */

/** Known secret formats and their replacements; order matters (a key block before key=value). */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g, '[REDACTED]'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, '[REDACTED]'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, '[REDACTED]'],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, '[REDACTED]'],
  [/\bxox[bp]-[A-Za-z0-9-]{10,}/g, '[REDACTED]'],
  [/\bAKIA[0-9A-Z]{16}\b/g, '[REDACTED]'],
  [/\bsk_live_[A-Za-z0-9]{10,}/g, '[REDACTED]'],
  [/\b((?:password|passwd|secret|token|api_key|apikey)\s*[:=]\s*)(['"`])(?:(?!\2)[^\n])*\2/gi, '$1$2[REDACTED]$2'],
];

/** `text` with every known secret replaced by `[REDACTED]`, and how many were. */
export function redactSecrets(text: string): { text: string; redacted: number } {
  let redacted = 0;
  let out = text;
  for (const [re, replacement] of SECRET_PATTERNS) {
    out = out.replace(re, (...m: unknown[]) => {
      // Replacement templates refer to groups: expand them by hand since a function replacer is used.
      const next = replacement.replace(/\$(\d)/g, (_, i: string) => String(m[Number(i)] ?? ''));
      // A value an earlier pattern already redacted (`api_key = "[REDACTED]"`) counts once.
      if (next !== m[0]) redacted++;
      return next;
    });
  }
  return { text: out, redacted };
}
