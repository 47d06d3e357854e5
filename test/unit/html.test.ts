import { describe, expect, it } from 'vitest';
import { html } from '../../components/html';

describe('html``', () => {
  it('escapes every value put in, in text and in attributes', () => {
    const value = `<script>alert("x")</script> & 'quoted'`;
    expect(html`<p title="${value}">${value}</p>`.html).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>',
    );
  });

  it('keeps HTML built with it as it is, joins lists, and writes nothing for false, null and undefined', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${false}${null}${undefined}${0}`.html).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });
});
