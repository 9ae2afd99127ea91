import { describe, expect, it } from 'vitest';
import { checkNotFoundPage } from '../../src/domains/not-found-page.js';

/**
 * Attack: a custom domain's 404 page that fetches from elsewhere. <style> elements (with @import or url()) and
 * style attributes with url() would load third-party resources into every 404 visitor's browser. The sanitiser
 * keeps plain styling only. (Scripts, handlers and javascript: URLs: test/domains/domains.test.ts.)
 */
const clean = (html: string): string => {
  const page = checkNotFoundPage({ type: 'html', html }, new Set(['snip.test']));
  if (page?.type !== 'html') throw new Error('expected an html page');
  return page.html;
};

describe('a custom 404 page fetches nothing', () => {
  it.each([
    ['a <style> element with @import', '<style>@import url("https://evil.example/x.css");</style><p>Gone</p>', ['<style', '@import', 'evil.example']],
    ['a <style> element with a background url()', '<style>body{background:url(https://evil.example/t.png)}</style><p>Gone</p>', ['<style', 'evil.example']],
    ['a style attribute with url()', '<p style="background-image: url(https://evil.example/t.png); color: red">Gone</p>', ['url(', 'evil.example']],
    ['a style attribute with image-set()', '<p style="background: image-set(&quot;https://evil.example/a.png&quot; 1x)">Gone</p>', ['image-set', 'evil.example']],
  ])('removes %s', (_what, html, absent) => {
    const text = clean(html);
    for (const bad of absent) expect(text.toLowerCase()).not.toContain(bad.toLowerCase());
    expect(text).toContain('Gone</p>');
  });

  it('keeps plain inline styling: colours, type and spacing', () => {
    expect(clean('<p style="color: #333; font-size: 18px; text-align: center">Gone</p>')).toBe('<p style="color:#333;font-size:18px;text-align:center">Gone</p>');
  });
});
