// The gateway's page against the reference stack in headless Chromium, as a user would use it: translate,
// detect, localize a file, synthesize and play; then a screenshot of the page.
//
//   npx tsx tools/demo/web-page.ts [--screenshot page.png]
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../conformance/harness/environment.ts';
import { startGateway, startService } from './reference-service.ts';

const { values } = parseArgs({ options: { screenshot: { type: 'string', default: 'translate-web-page.png' } } });
const service = await startService();
const gateway = await startGateway(service.address);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'] });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  await page.goto(gateway.address);
  await page.waitForSelector('[data-testid=capabilities][data-state=done]');
  const done = (form: string) => page.waitForSelector(`[data-testid=${form}][data-state=done]`);

  await page.fill('[data-testid=translate-text]', 'The house is big and the garden is green.');
  await page.selectOption('[data-testid=translate-model]', 'apertium');
  await page.click('[data-testid=translate-submit]');
  await done('translate-form');
  console.log(`translate: ${await page.textContent('[data-testid=translate-result]')}`);

  await page.fill('[data-testid=detect-text]', 'Привет, как у тебя дела сегодня?');
  await page.click('[data-testid=detect-submit]');
  await done('detect-form');
  console.log(`detect: ${await page.textContent('[data-testid=detect-language]')} (${await page.textContent('[data-testid=detect-probability]')})`);

  const strings = { greeting: 'Good morning', menu: { open: 'Open the file', close: 'Close' } };
  await page.selectOption('[data-testid=localize-model]', 'apertium');
  await page.setInputFiles('[data-testid=localize-file]', { name: 'en.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(strings)) });
  await page.click('[data-testid=localize-submit]');
  await done('localize-form');
  console.log(`localize: ${await page.textContent('[data-testid=localize-count]')} strings`);

  await page.fill('[data-testid=synthesize-text]', 'Hello from the translation gateway.');
  await page.click('[data-testid=synthesize-submit]');
  await done('synthesize-form');
  const audio = await page.evaluate(async () => {
    const player = document.querySelector<HTMLAudioElement>('[data-testid=synthesize-player]')!;
    const until = Date.now() + 5000;
    while (player.currentTime === 0 && !player.ended && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return { duration: player.duration, playedTo: player.currentTime, ended: player.ended };
  });
  console.log(`synthesize: ${await page.textContent('[data-testid=synthesize-sample-rate]')} Hz, ${JSON.stringify(audio)}`);

  await page.screenshot({ path: values.screenshot!, fullPage: true });
  console.log(`screenshot: ${values.screenshot}`);
} finally {
  await browser.close();
  gateway.stop();
  service.stop();
}
