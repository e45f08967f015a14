/**
 * Which Chromium the tests drive. Debian's package at /usr/bin/chromium when it is
 * installed (Playwright cannot download its own browser on every machine);
 * otherwise Playwright's bundled browser, so the same tests run on any laptop.
 * `CHROMIUM_PATH` overrides both.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Launch options for Playwright's `chromium.launch`. */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[]; headless: true } {
  const executablePath = chromiumExecutable();
  return { ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS, headless: true };
}
