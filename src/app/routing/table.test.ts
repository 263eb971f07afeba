/** The route matcher: whole segments, params decoded, the wildcards' rules. */
import { describe, expect, it } from 'vitest'
import { matchPattern, matchRoute, NOT_FOUND, type RouteDef } from './table'

describe('route matcher', () => {
  it('matches patterns on whole segments and decodes params', () => {
    expect(matchPattern('/users/:id', '/users/a%40b.com')).toEqual({ id: 'a@b.com' })
    expect(matchPattern('/data/*', '/data')).toBeNull()
    expect(matchPattern('/static/*?', '/static')).toEqual({ rest: '' })
    expect(matchPattern('/static/*?', '/staticx')).toBeNull()
    expect(matchPattern('/', '/?x=1')).toEqual({})
  })

  it('takes the first row that matches, else the 404 page', () => {
    const row = (pattern: string): RouteDef => ({
      pattern,
      title: pattern,
      shell: true,
      footer: true,
      screen: pattern,
    })
    const rows = [row('/a/:id'), row('/a/*')]
    expect(matchRoute('/a/1', rows).route.pattern).toBe('/a/:id')
    expect(matchRoute('/a/1/2', rows).route.pattern).toBe('/a/*')
    expect(matchRoute('/b', rows).route).toBe(NOT_FOUND)
  })
})
