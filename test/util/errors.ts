/**
 * The message of the error `f` throws, which must be a plain Error: a validation error of the library, not a TypeError
 * or another crash. Fails when `f` returns.
 */
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).constructor).toBe(Error);
    return (e as Error).message;
  }
  throw new Error('expected an error, but it was accepted');
}
