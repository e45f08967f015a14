/**
 * Credentials in server URLs: stripped for what is kept (`publicUrl`), masked
 * for what is shown, and put back when a masked URL is edited (issue 33).
 */
import { describe, expect, test } from 'vitest';
import { maskUrlSecrets, publicUrl, restoreMaskedSecrets } from './url-secrets.js';

const bridge = 'http://127.0.0.1:4111/mcp?token=tok-9f2c&tenant=blue';

describe('server URL secrets', () => {
  test('publicUrl drops token=, key=, sig= and user:password@, keeps the rest', () => {
    expect(publicUrl(bridge)).toBe('http://127.0.0.1:4111/mcp?tenant=blue');
    expect(publicUrl('https://ada:pw-7@example.com/mcp?key=k1&sig=s2&q=1')).toBe('https://example.com/mcp?q=1');
    expect(publicUrl('not a url')).toBe('not a url');
  });

  test('an edit of the masked URL keeps the secrets the mask stands for', () => {
    const shown = maskUrlSecrets(bridge);
    expect(shown).toBe('http://127.0.0.1:4111/mcp?token=…&tenant=blue');
    expect(restoreMaskedSecrets(shown, bridge)).toBe(bridge);
    // The path edited: the token stays.
    expect(restoreMaskedSecrets(shown.replace('/mcp', '/v2/mcp'), bridge)).toBe('http://127.0.0.1:4111/v2/mcp?token=tok-9f2c&tenant=blue');
    // A token typed anew is the user's.
    expect(restoreMaskedSecrets('http://127.0.0.1:4111/mcp?token=new-1', bridge)).toBe('http://127.0.0.1:4111/mcp?token=new-1');
    // user:password@, masked as //…@.
    const withUser = 'https://ada:pw-7@example.com/mcp';
    expect(restoreMaskedSecrets(maskUrlSecrets(withUser), withUser)).toBe(withUser);
    // Nothing to restore from: the mask stays (the server refuses it, visibly).
    expect(restoreMaskedSecrets('http://h/mcp?token=…', 'http://h/mcp')).toContain('token=');
  });
});
