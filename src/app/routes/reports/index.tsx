/**
 * Reports (issue 17): linked from Forms & Reports; a report's address is its share link. The chart code
 * is a further lazy chunk of the report screen; the service worker precaches every chunk.
 */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/reports',
      title: 'Reports',
      auth: 'required',
      screen: 'reports',
      linkedOnly: true,
      load: async () => (await import('./ReportsScreen')).ReportsScreen,
    },
    {
      pattern: '/reports/:id',
      title: 'Report',
      auth: 'required',
      screen: 'report',
      linkedOnly: true,
      // Without reports/{id}:r the mirror has no such report: say why, not "deleted" (issue 36).
      access: ({ params }) => ({
        section: `Report ${params.id ?? ''}`,
        needed: `reports/${params.id ?? ''}:r`,
      }),
      load: async () => {
        const { ReportScreen } = await import('./ReportScreen')
        return function Report({ params }: { params: Record<string, string> }) {
          return <ReportScreen key={params.id} id={params.id ?? ''} />
        }
      },
    },
  ],
})
