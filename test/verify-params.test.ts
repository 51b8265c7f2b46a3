/** verify_change's readers: parameters from each language's signatures, arguments from call sites. */
import { callArguments, parseParams } from '../ts/tools/verify';

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
