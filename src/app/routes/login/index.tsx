/**
 * The login page: the only screen in the first JavaScript (issue 20, docs/contributing/performance.md "7. Bundle"),
 * so it is given as a component, not loaded.
 */
import { defineSection } from '../../routing/section'
import { LoginPage } from './LoginPage'

export const section = defineSection({
  routes: [
    {
      pattern: '/login',
      title: 'Login',
      auth: 'guest',
      screen: 'login',
      chrome: 'bare',
      component: LoginPage,
    },
  ],
})
