/** `docs/tools.md` is the catalogue the registry generates (`gortex tools --markdown`), and it covers every tool. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolCatalogue } from '../ts/calls/catalogue';
import { callableTools } from '../ts/calls/surface';
import { runCli } from './helpers/cli';

const DOC = path.resolve(__dirname, '..', 'docs', 'tools.md');

describe('the tool catalogue', () => {
  test('docs/tools.md is what the registry generates (regenerate: npx gortex tools --markdown > docs/tools.md)', () => {
    expect(fs.readFileSync(DOC, 'utf8')).toBe(toolCatalogue());
  });

  test('every callable tool has a section, and the CLI prints the same text', () => {
    const text = toolCatalogue();
    const sections = [...text.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1]);
    // explore and analyze exist as a registry tool and as a compact tool: both sections are there.
    expect(new Set(sections)).toEqual(new Set(callableTools().map((t) => t.name)));
    expect(text).toMatch(/### `get_callers`\n\n\*read\* — [^\n]+\n\n\| argument \| type \| required \| description \|\n[^\n]+\n\| `id` \| string \| yes \|/);
    const printed = runCli(['tools', '--markdown']);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(text);
  });
});
