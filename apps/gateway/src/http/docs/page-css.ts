/** The reference page's style sheet, inlined so the page fetches nothing. */
export const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d2330;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:300px;flex:none;padding:16px;background:#f5f6f8;border-right:1px solid #e2e4e9;font-size:13px}
nav ul{list-style:none;padding:0;margin:0 0 8px}nav li a{display:block;padding:2px 0;color:#1d2330;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav h5{margin:14px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.05em}nav h5 a{color:#556}.brand{font-weight:700;font-size:15px}
main{flex:1;min-width:0;padding:24px 40px;max-width:1100px}h1{margin-top:0}h2{border-bottom:2px solid #e2e4e9;padding-bottom:4px;margin-top:48px}
.op,.schema{border:1px solid #e2e4e9;border-radius:8px;padding:4px 18px 12px;margin:18px 0}.op h3{font-size:17px}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f0f1f4;padding:1px 4px;border-radius:4px}pre{background:#f0f1f4;padding:10px;border-radius:6px;overflow:auto}pre code{background:none;padding:0}
table{border-collapse:collapse;width:100%;margin:8px 0;font-size:14px}th,td{border-top:1px solid #e2e4e9;padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;color:#556;text-transform:uppercase}
td table{font-size:13px}td p{margin:0 0 4px}.c{color:#667;font-size:13px}.req{color:#b4233c;font-size:11px;font-weight:600}
.method{display:inline-block;min-width:52px;text-align:center;font:700 11px ui-monospace,monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#667}
.method.get{background:#2f7d4f}.method.post{background:#2458b3}.method.delete{background:#b4233c}.method.put,.method.patch{background:#a8660a}
.status{display:inline-block;font:700 12px ui-monospace,monospace;padding:1px 6px;border-radius:4px;background:#e2e4e9}.status.ok{background:#d8f0e0}.status.err{background:#fbe0e4}
details{margin:4px 0}summary{cursor:pointer}.resp summary p{display:inline}.media{margin-left:12px}.ct{margin:6px 0 0}.lead{font-size:17px;color:#445}a{color:#2458b3}
`;
