/**
 * Small DOM helpers of the report's page script. Text always goes in by `textContent`, never as markup: the
 * facts come from the page's JSON element, and a chunk id or heading may hold anything a document held.
 */

/** A new element with an optional class and text. */
export function node<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string | number): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = String(text);
  return n;
}

/** The element with this id; the page's markup always has it, so its absence is a broken page, said so. */
export function required(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the report page has no #${id}`);
  return el;
}

/** 12345.67 → "12,345.7". By hand: the first toLocaleString call sets up ICU, which costs the page's start-up. */
export function num(v: number): string {
  const parts = String(Math.round(Number(v) * 10) / 10).split('.');
  parts[0] = (parts[0] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return parts.join('.');
}

/** Adds a `<dt>label</dt><dd>value</dd>` pair to a facts list, unless the value is missing or empty. */
export function row(dl: HTMLElement, label: string, value: string | number | Node | undefined): void {
  if (value === undefined || value === '') return;
  dl.appendChild(node('dt', '', label));
  const dd = node('dd');
  if (typeof value === 'string' || typeof value === 'number') dd.textContent = String(value);
  else dd.appendChild(value);
  dl.appendChild(dd);
}

/** The items as chips, those in `warn` coloured as warnings. */
export function chips(items: readonly string[], warn: readonly string[]): HTMLElement {
  const span = node('span');
  for (const t of items) span.appendChild(node('span', warn.includes(t) ? 'chip warn' : 'chip', t));
  return span;
}

/** True when the (optional) list holds the item. */
export function has(list: readonly string[] | undefined, item: string): boolean {
  return list?.includes(item) === true;
}

/** The number in an element's attribute (`Number(null)`, 0, when it has none, as the markup never leaves one out). */
export function numberAttribute(el: Element, name: string): number {
  return Number(el.getAttribute(name));
}

/** The element an event happened on, when it is one (not the document, not a text node). */
export function targetElement(e: Event): Element | null {
  return e.target instanceof Element ? e.target : null;
}
