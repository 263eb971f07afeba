/**
 * chart.js for the analytics screens only: this module is imported by the lazy screens, so the
 * console's first load carries none of it. Only what the two chart kinds use is registered (a line
 * over a time axis, horizontal bars over categories), which keeps the chunk small.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
} from 'chart.js'
import 'chartjs-adapter-date-fns'

Chart.register(
  LineController,
  LineElement,
  PointElement,
  Filler,
  BarController,
  BarElement,
  LinearScale,
  CategoryScale,
  TimeScale,
  Tooltip,
  Legend,
)

export { Chart }
