// No file-level import cycle inside any package's src, type-only imports included: a cycle means
// two modules that cannot be read, tested or moved one without the other.
import { packageDirs, workspaceSources } from './workspace-sources.js';

/** The strongly connected components with more than one file (or a file importing itself). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe.each(packageDirs)('%s/src', (pkg) => {
  it('has no import cycle between its files', () => {
    const src = `${pkg}/src/`;
    const files = workspaceSources().filter((file) => file.path.startsWith(src));
    const graph = new Map(files.map((file) => [file.path, file.imports.flatMap((edge) => (edge.target?.startsWith(src) ? [edge.target] : []))]));
    expect(cycles(graph)).toEqual([]);
  });
});
