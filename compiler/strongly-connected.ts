// Loops in a directed graph of names (word lists referring to word lists, modules importing modules):
// Tarjan's strongly connected components, without recursion so a long chain cannot overflow the stack.

/** Strongly connected components that hold a loop (several nodes, or one with an edge to itself), each sorted. */
export function stronglyConnectedLoops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const walk: { name: string; next: number }[] = [];
    const enter = (name: string) => {
      index.set(name, index.size);
      low.set(name, index.get(name)!);
      stack.push(name);
      onStack.add(name);
      walk.push({ name, next: 0 });
    };
    enter(root);
    while (walk.length > 0) {
      const frame = walk[walk.length - 1]!;
      const children = graph.get(frame.name) ?? [];
      if (frame.next < children.length) {
        const child = children[frame.next++]!;
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(frame.name, Math.min(low.get(frame.name)!, index.get(child)!));
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!));
      if (low.get(frame.name) !== index.get(frame.name)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.name);
      if (component.length > 1 || children.includes(frame.name)) out.push(component.sort());
    }
  }
  return out;
}
