// A partner's nightly sync with the package: every employee (the pages walked for you),
// every closed payroll run's journal checked to balance to the fils, in integers of the
// currency's minor unit (never JavaScript numbers), and a refusal reported with what
// support needs. Type-checked with the package's own strict tsconfig.
//
//   PARTNER_API_KEY=svc_test_... PARTNER_API_BASE_URL=http://127.0.0.1:8000 node payroll-sync.js
import { ApiError, Client, type PayrollRun } from "partner-api-client";

/** A decimal string of the API ("1250.500") in minor units (1250500n), exactly. */
export function minorUnits(amount: string, places: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (match === null || (match[3] ?? "").length > places) throw new RangeError(`not an amount: ${amount}`);
  const units = BigInt((match[2] ?? "") + (match[3] ?? "").padEnd(places, "0"));
  return match[1] ? -units : units;
}

/** Minor units back as the API writes them ("1250.500"). */
export function decimal(units: bigint, places: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, "0");
  const whole = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return units < 0n ? `-${whole}` : whole;
}

/** The run's journal total, after checking every entry's debits equal its credits. */
function balanced(run: PayrollRun, places: number): string {
  let total = 0n;
  for (const entry of run.journal_entries) {
    const debit = entry.lines.reduce((sum, line) => sum + minorUnits(line.debit, places), 0n);
    const credit = entry.lines.reduce((sum, line) => sum + minorUnits(line.credit, places), 0n);
    if (debit !== credit) throw new Error(`${run.id}: an entry's debits ${debit} are not its credits ${credit}`);
    total += debit;
  }
  return decimal(total, places);
}

const PLACES: Record<string, number> = { KWD: 3, BHD: 3, OMR: 3, SAR: 2, AED: 2, QAR: 2 };

async function main(): Promise<number> {
  const client = new Client({ apiKey: process.env.PARTNER_API_KEY ?? "",
                              baseUrl: process.env.PARTNER_API_BASE_URL ?? "http://127.0.0.1:8000" });
  try {
    const company = await client.company();
    let staff = 0;
    for await (const _ of client.employees.list({ limit: 100 })) staff += 1;
    console.log(`${company.name.en}: ${staff} employees`);
    for await (const summary of client.payrollRuns.list()) {
      const run = await client.payrollRuns.get(summary.id);
      const places = PLACES[run.currency] ?? 2;
      console.log(`${run.payroll_month} ${run.status}: net ${run.totals.net} ${run.currency}, `
                  + `journal ${balanced(run, places)} balanced`);
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const why = error.detail ?? error.title;
    console.error(`refused: ${error.status} ${error.code}: ${why} (request ${error.requestId})`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
