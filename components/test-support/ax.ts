/**
 * Chromium's own accessibility tree of the test page (the frame the test runs
 * in), read through the DevTools protocol: what a screen reader is given,
 * after shadow roots, ARIA and native semantics are resolved.
 */
import { cdp } from 'vitest/browser';

interface AxValue {
  value?: unknown;
}
interface AxNode {
  ignored: boolean;
  role?: AxValue;
  name?: AxValue;
  properties?: { name: string; value: AxValue }[];
}

async function testFrameId(): Promise<string> {
  const { frameTree } = (await cdp().send('Page.getFrameTree')) as { frameTree: FrameTree };
  const found = find(frameTree);
  if (!found) throw new Error(`no frame for ${location.href}`);
  return found;
}
interface FrameTree {
  frame: { id: string; url: string };
  childFrames?: FrameTree[];
}
function find(tree: FrameTree): string | undefined {
  if (tree.frame.url === location.href) return tree.frame.id;
  for (const child of tree.childFrames ?? []) {
    const found = find(child);
    if (found) return found;
  }
  return undefined;
}

/** Every node of the tree that is not ignored, as `role "name"` plus its states. */
export async function accessibilityTree(): Promise<{ role: string; name: string; required: boolean }[]> {
  const { nodes } = (await cdp().send('Accessibility.getFullAXTree', { frameId: await testFrameId() })) as { nodes: AxNode[] };
  return nodes
    .filter((node) => !node.ignored)
    .map((node) => ({
      role: String(node.role?.value ?? ''),
      name: String(node.name?.value ?? ''),
      required: node.properties?.some((p) => p.name === 'required' && p.value.value === true) ?? false,
    }));
}

/** The nodes a screen reader announces as required, as `role: name`. */
export async function requiredNodes(): Promise<string[]> {
  return (await accessibilityTree()).filter((node) => node.required).map((node) => `${node.role}: ${node.name}`);
}
