/**
 * Long-running calls in the playground (Tasks extension), in real Chromium
 * against the demo server: a call that runs as a task survives a page reload.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eServerUrl } from '../playwright.config.js';
import { answerElicitation, waitForConnection } from './helpers/index.js';

const form = (page: Page) => page.locator('mcp-tool-form');
/** The Tasks pane (one of the panes beside the tool form; its text is checked whether or not it is the one open). */
const tasksPanel = async (page: Page) => page.locator('.workspace:not([hidden]) .pane[data-pane="tasks"]');
const toolPane = (page: Page) => page.getByRole('tablist', { name: 'Panes' }).getByRole('tab', { name: 'Tool' }).click();

test('a task started in the tool form is picked up after a reload, and its result shown', async ({ page }) => {
  // The Node demo server: the static site's in-browser server has no task tool.
  await page.goto(`/?server=${encodeURIComponent(e2eServerUrl)}`);
  await waitForConnection(page);
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Run a pipeline' }).click();
  await form(page).getByRole('textbox', { name: 'Service' }).fill('checkout');
  // Steps long enough for the page's first poll to see one, even on a busy machine (three steps, then the approval).
  await form(page).getByRole('spinbutton', { name: 'Step duration (ms)' }).fill('2500');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(form(page).locator('[part="task-status"]')).toHaveText(/^Running as a task, started just now$/);
  await expect(form(page).locator('[part="task-message"]')).toContainText('checkout…');
  await expect((await tasksPanel(page)).locator('li')).toContainText('run_pipeline');

  // The page goes away while the task runs; the task does not (no tasks/cancel is sent).
  const cancels: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.postData()?.includes('"tasks/cancel"')) cancels.push(request.url());
  });
  await page.reload();
  await waitForConnection(page);

  // The Tasks panel lists it from storage; the form of its tool picks it up.
  await expect((await tasksPanel(page)).locator('li').first()).toContainText('before a reload');
  await expect(form(page).getByRole('heading', { name: 'Run a pipeline' })).toBeVisible();
  await expect(form(page).locator('[part="task-status"]')).toHaveText(/^Still running, started (just now|1 min ago)$/);

  // The task waits for an approval: the dialog asks for it after the reload.
  await answerElicitation(page, { 'Release note': 'after a reload' }, { message: /checkout passed its tests/ });
  await expect(form(page).locator('mcp-tool-result')).toContainText(/Deployed checkout build #\d+: after a reload\./);
  await expect(form(page).locator('[part="task"]')).toHaveCount(0);
  await expect((await tasksPanel(page)).locator('li').first()).toContainText('completed');
  // Its tab opens it.
  await page.getByRole('tablist', { name: 'Panes' }).getByRole('tab', { name: /^Tasks/ }).click();
  await expect(page.getByRole('tabpanel', { name: /^Tasks/ })).toContainText('run_pipeline');
  await toolPane(page);
  await expect(form(page).getByRole('heading', { name: 'Run a pipeline' })).toBeVisible();
  expect(cancels).toEqual([]);
});

test('Cancel stops a task: the form says Cancelled and the Tasks panel shows it cancelled, from the form or from the panel', async ({ page }) => {
  await page.goto(`/?server=${encodeURIComponent(e2eServerUrl)}`);
  await waitForConnection(page);
  const cancels: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.postData()?.includes('"tasks/cancel"')) cancels.push(request.url());
  });
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Run a pipeline' }).click();
  await form(page).getByRole('textbox', { name: 'Service' }).fill('billing');
  await form(page).getByRole('spinbutton', { name: 'Step duration (ms)' }).fill('60000');
  const row = (await tasksPanel(page)).locator('li').first();

  // The form's Cancel.
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(row.locator('.badge')).toHaveText('working');
  await form(page).getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(form(page).locator('[part="status"]')).toHaveText(/^Cancelled/);
  await expect(row.locator('.badge')).toHaveText('cancelled');
  await expect(row.getByRole('button', { name: 'Cancel task' })).toHaveCount(0);
  expect(cancels).toHaveLength(1);

  // The panel's Cancel task, on a second call.
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect((await tasksPanel(page)).locator('li')).toHaveCount(2);
  await expect(row.locator('.badge')).toHaveText('working');
  // The panel's button is in the Tasks pane: open it.
  await page.getByRole('tablist', { name: 'Panes' }).getByRole('tab', { name: /^Tasks/ }).click();
  await row.getByRole('button', { name: 'Cancel task' }).click();
  await expect(row.locator('.badge')).toHaveText('cancelled');
  expect(cancels).toHaveLength(2);
});
