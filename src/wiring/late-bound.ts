/**
 * A reference to a service built after the one that needs it, where the two need each other (a
 * true cycle): created before both, handed to the first as a constructor argument, bound once when
 * the second exists. Reading it before then is a wiring mistake and throws.
 */
export class LateBound<T> {
  private value: T | undefined;

  constructor(private readonly name: string) {}

  bind(value: T): T {
    if (this.value !== undefined) throw new Error(`${this.name} is bound twice`);
    this.value = value;
    return value;
  }

  get(): T {
    if (this.value === undefined) throw new Error(`${this.name} is read before it is built`);
    return this.value;
  }
}
