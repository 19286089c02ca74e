import { describe, expect, it } from 'vitest';
import { sessionContext, TITLE_CHARS } from '../../../companion/analysis/session-context';
import { loadFixture } from '../../support/records';

const user = (...texts: string[]) => ({ type: 'message', role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) });
const ENV = '<environment_context>\n  <cwd>/home/dev/app</cwd>\n  <shell>zsh</shell>\n</environment_context>';

describe('sessionContext', () => {
  it('reads the title and cwd of a real request: the prompt after the AGENTS.md and environment blocks', () => {
    const input = loadFixture('fallback-text-1.json').request!.body.input;
    expect(sessionContext(input)).toEqual({ title: 'say hello', cwd: '/tmp/codex-unelided-fallback-text-UAEIYx' });
  });

  it('keeps looking for the title after the cwd is found, and for the cwd after the title', () => {
    expect(sessionContext([user(ENV), user('first prompt')])).toEqual({ title: 'first prompt', cwd: '/home/dev/app' });
    expect(sessionContext([user('first prompt'), user(ENV)])).toEqual({ title: 'first prompt', cwd: '/home/dev/app' });
  });

  it('takes the first prompt only, and the first cwd only', () => {
    const other = ENV.replace('/home/dev/app', '/elsewhere');
    expect(sessionContext([user('one'), user(ENV), user('two'), user(other)])).toEqual({ title: 'one', cwd: '/home/dev/app' });
  });

  it('keeps the first prompt when later ones follow and no cwd is found', () => {
    expect(sessionContext([user('one'), user('two')])).toEqual({ title: 'one', cwd: null });
  });

  it('joins the prompt’s lines and cuts it to TITLE_CHARS characters', () => {
    expect(TITLE_CHARS).toBe(200);
    const long = 'word '.repeat(100);
    const title = sessionContext([user(`\n  ${long}`)]).title!;
    expect(title).toBe(long.trim().slice(0, 200));
    expect(title).toHaveLength(200);
    expect(sessionContext([user('  fix\n\tthe   bug ')]).title).toBe('fix the bug');
  });

  it('skips a blank prompt and takes the next one', () => {
    expect(sessionContext([user(' \n '), user('real')]).title).toBe('real');
  });

  it('skips an environment block without a cwd, or with a blank one, and takes a later cwd', () => {
    const blank = '<environment_context><cwd>  </cwd></environment_context>';
    const none = '<environment_context><shell>bash</shell></environment_context>';
    expect(sessionContext([user(none), user(blank), user(ENV)]).cwd).toBe('/home/dev/app');
    expect(sessionContext([user(none)]).cwd).toBeNull();
  });

  it('trims the cwd', () => {
    expect(sessionContext([user('<environment_context><cwd>\n /repo \n</cwd></environment_context>')]).cwd).toBe('/repo');
  });

  it('reads the cwd only from the environment block, not from the prompt', () => {
    expect(sessionContext([user('look in <cwd>/tmp/x</cwd>')])).toEqual({ title: 'look in <cwd>/tmp/x</cwd>', cwd: null });
  });

  it('reads string content and untyped user messages', () => {
    expect(sessionContext([{ role: 'user', content: 'typed as a string' }])).toEqual({ title: 'typed as a string', cwd: null });
  });

  it('reads user messages only: not developer or assistant messages, nor other items in the user’s role', () => {
    const input = [
      { type: 'message', role: 'developer', content: 'dev' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'assistant' }] },
      { type: 'function_call_output', role: 'user', content: 'output' },
      'text',
      null,
      Object.assign(['x'], { role: 'user', content: 'array' }),
      user('mine'),
    ];
    expect(sessionContext(input).title).toBe('mine');
  });

  it('skips content parts that carry no text', () => {
    const item = {
      type: 'message',
      role: 'user',
      content: [null, 'raw', { type: 'input_image', image_url: 'u' }, { text: 5 }, { text: 'ok' }],
    };
    expect(sessionContext([item]).title).toBe('ok');
    expect(sessionContext([{ type: 'message', role: 'user', content: { text: 'not a list' } }]).title).toBeNull();
  });

  it('finds neither in an empty input', () => {
    expect(sessionContext([])).toEqual({ title: null, cwd: null });
  });
});
