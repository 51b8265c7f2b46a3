/** verify_change's readers: parameters from each language's signatures, arguments from call sites. */
import { callArguments, declaredParams, parseParams, signatureOf } from '../ts/tools/verify';

test('parameters: required, optional and variadic in every signature style', () => {
  expect(parseParams('export function load<T>(path: string, opts?: Options, cb: (e: Error) => void = noop): T', 'load')).toEqual({ required: 1, total: 3, variadic: false });
  expect(parseParams('def save(self, item, *args, flag=False, **kw)', 'save')).toEqual({ required: 1, total: 2, variadic: true });
  expect(parseParams('def f(a, /, b, *, c=1)', 'f')).toEqual({ required: 2, total: 3, variadic: false });
  expect(parseParams('func (s *Store) Save(a, b int, rest ...string) error', 'Save')).toEqual({ required: 2, total: 2, variadic: true });
  expect(parseParams('public <T> void save(final Item item, int n, String... names)', 'save')).toEqual({ required: 2, total: 2, variadic: true });
  expect(parseParams('fun f(a: Int, b: Int = 1): Int', 'f')).toEqual({ required: 1, total: 2, variadic: false });
  expect(parseParams('pub fn get(&mut self, key: &str) -> Option<String>', 'get')).toEqual({ required: 1, total: 1, variadic: false });
  expect(parseParams('no parameter list here', 'f')).toBeUndefined();
});

test('arguments: counted at the call, across lines, nested calls and strings included', () => {
  const lines = ['const x = load(', '  path.join(a, b),', "  { mode: 'r', tags: [1, 2] },", ');', 'loader(1); load(...all);'];
  expect(callArguments(lines, 1, 'load')).toEqual({ count: 2, spread: false });
  expect(callArguments(lines, 5, 'load')).toEqual({ count: 1, spread: true });
  expect(callArguments(['f()'], 1, 'f')).toEqual({ count: 0, spread: false });
  expect(callArguments(['s.f("a, b", g(1, 2))'], 1, 'f')).toEqual({ count: 2, spread: false });
  expect(callArguments(['ref = f'], 1, 'f')).toBeUndefined();
});

test('comments inside parameter and argument lists count for nothing, by the language of the file', () => {
  // requests' RequestsCookieJar.get: a `# type: ignore` comment after the open parenthesis.
  const get = 'def get(  # type: ignore[override]\n    self,\n    name: str,\n    default: str | None = None,  # the fallback, or None\n    path: str | None = None,\n) -> str | None:';
  expect(parseParams(get, 'get', 'src/requests/cookies.py')).toEqual({ required: 1, total: 3, variadic: false });
  expect(parseParams('function f(a /* the first, or none */, b // then b, c\n) {', 'f', 'x.ts')).toEqual({ required: 2, total: 2, variadic: false });
  // `#` is no comment in TypeScript, nor `//` in Python (floor division), and strings keep both.
  expect(callArguments(['f(a // 2, "#x, y", b)'], 1, 'f', 'm.py')).toEqual({ count: 3, spread: false });
  expect(callArguments(['f(a, // why: b, c', '  d)'], 1, 'f', 'm.go')).toEqual({ count: 2, spread: false });
  expect(callArguments(['f(a,  # why, again', '  d)'], 1, 'f', 'm.py')).toEqual({ count: 2, spread: false });
});

test('declared parameters merge every declaration of a name: overloads accept a call that fits any', () => {
  // flask's App.template_filter: two @overload stubs, then the implementation.
  const flask = [
    'class App:',
    '    @t.overload',
    '    def template_filter(self, name: T_template_filter) -> T_template_filter: ...',
    '    @t.overload',
    '    def template_filter(',
    '        self, name: str | None = None',
    '    ) -> t.Callable[[T_template_filter], T_template_filter]: ...',
    '    @setupmethod',
    '    def template_filter(',
    '        self, name: T_template_filter | str | None = None',
    '    ) -> T_template_filter | t.Callable[[T_template_filter], T_template_filter]:',
    '        return self.template_filter(name)',
  ].join('\n');
  expect(declaredParams(flask, 'template_filter', 'app.py')).toEqual({ required: 0, total: 1, variadic: false });
  const ts = 'export function pick(a: string): string;\nexport function pick(a: string, b: number): string;\nexport function pick(a: string, b?: number): string {\n  return pick(a);\n}\nconst x = pick("q", 1, 2);';
  expect(declaredParams(ts, 'pick', 'p.ts')).toEqual({ required: 1, total: 2, variadic: false });
  // Calls and assignments are not declarations.
  expect(declaredParams('x = load(1, 2)\nobj.load(3)', 'load', 'm.py')).toBeUndefined();
  expect(declaredParams('func (s *Store) Save(a, b int, rest ...string) error {', 'Save', 's.go')).toEqual({ required: 2, total: 2, variadic: true });
  expect(parseParams(signatureOf('f', { required: 1, total: 3, variadic: true }), 'f', 'x.py')).toEqual({ required: 1, total: 3, variadic: true });
});
