import { describe, expect, it } from 'vitest'
import { layoutOf, withLayout } from './layout-ref'

describe('layout picker', () => {
  it('adds a layout and wraps the body in the content block', () => {
    const s = withLayout('<p>Hi {{ name }}</p>', 'base')
    expect(s).toBe('{% layout "base" %}{% block content %}<p>Hi {{ name }}</p>{% endblock %}')
    expect(layoutOf(s)).toBe('base')
  })
  it('replaces a layout and keeps existing blocks', () => {
    const s = withLayout('{% layout "a" %}{% block content %}x{% endblock %}', 'b')
    expect(s).toBe('{% layout "b" %}{% block content %}x{% endblock %}')
  })
  it('removes the tag', () => {
    expect(withLayout('{% layout "a" %}{% block content %}x{% endblock %}', '')).toBe(
      '{% block content %}x{% endblock %}',
    )
    expect(layoutOf('<p>x</p>')).toBe('')
  })
})
