import { checkPassword } from './src/shared/password-policy'
for (const u of ['tia','pat','ivy','probe','next-user','a','x','auditor-1','rej', 'zed']) { const p = `${u}-pw-orbit-lantern`; console.log(p, await checkPassword(p,[u, u, `${u}@example.com`])) }
