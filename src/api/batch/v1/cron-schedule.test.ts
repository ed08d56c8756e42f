import assert from "node:assert/strict";
import test from "node:test";
import { type CronSchedule, type CronSpecSchedule, parseCronSchedule } from "./cron-parse.ts";
import { mostRecentScheduleTime, nextScheduleTime } from "./cron-schedule.ts";
import { loadLocationError } from "./cron-time.ts";
import { validateCronSchedule, validateTimeZone } from "./cron-validation.ts";

const at = (iso: string): Date => new Date(iso);

function spec(text: string): CronSpecSchedule {
  const schedule = parseCronSchedule(text);
  assert.equal(schedule.kind, "spec", `${text} parses to a five-field schedule`);
  return schedule as CronSpecSchedule;
}

const range = (from: number, to: number, step = 1): number[] => {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
};

const fieldCases: {
  text: string;
  field: "minute" | "hour" | "dayOfMonth" | "month" | "dayOfWeek";
  values: number[];
  star: boolean;
}[] = [
  { text: "*/15 * * * *", field: "minute", values: [0, 15, 30, 45], star: false },
  { text: "*/1 * * * *", field: "minute", values: range(0, 59), star: true },
  { text: "5/20 * * * *", field: "minute", values: [5, 25, 45], star: false },
  { text: "0 9-17/2 * * *", field: "hour", values: [9, 11, 13, 15, 17], star: false },
  { text: "0 0 1,15 * *", field: "dayOfMonth", values: [1, 15], star: false },
  { text: "0 0 ,1,,15, * *", field: "dayOfMonth", values: [1, 15], star: false },
  { text: "0 0 ? * *", field: "dayOfMonth", values: range(1, 31), star: true },
  { text: "0 0 * JAN-mar *", field: "month", values: [1, 2, 3], star: false },
  { text: "0 0 * 1,Dec *", field: "month", values: [1, 12], star: false },
  { text: "0 0 * * mon-FRI", field: "dayOfWeek", values: [1, 2, 3, 4, 5], star: false },
  { text: "0 0 * * SUN,sat", field: "dayOfWeek", values: [0, 6], star: false },
  { text: "0 0 * * 1/2", field: "dayOfWeek", values: [1, 3, 5], star: false },
  { text: "0 0 * * ?", field: "dayOfWeek", values: range(0, 6), star: true },
  // robfig ignores what follows a star's hyphen, and Atoi takes a plus sign.
  { text: "*-5 * * * *", field: "minute", values: range(0, 59), star: true },
  { text: "+5 * * * *", field: "minute", values: [5], star: false },
  { text: "  0\t9  * * *  ", field: "hour", values: [9], star: false },
];

for (const c of fieldCases) {
  test(`parseCronSchedule: ${JSON.stringify(c.text)} gives ${c.field} ${c.values.join(",")}`, () => {
    const field = spec(c.text)[c.field];
    assert.deepEqual(field.values, c.values);
    assert.equal(field.star, c.star, "star bit");
  });
}

const descriptorCases: {
  text: string;
  fields: [number[], number[], number[], number[], number[]];
}[] = [
  { text: "@yearly", fields: [[0], [0], [1], [1], range(0, 6)] },
  { text: "@annually", fields: [[0], [0], [1], [1], range(0, 6)] },
  { text: "@monthly", fields: [[0], [0], [1], range(1, 12), range(0, 6)] },
  { text: "@weekly", fields: [[0], [0], range(1, 31), range(1, 12), [0]] },
  { text: "@daily", fields: [[0], [0], range(1, 31), range(1, 12), range(0, 6)] },
  { text: "@midnight", fields: [[0], [0], range(1, 31), range(1, 12), range(0, 6)] },
  { text: "@hourly", fields: [[0], range(0, 23), range(1, 31), range(1, 12), range(0, 6)] },
];

for (const c of descriptorCases) {
  test(`parseCronSchedule: ${c.text} is its five-field equivalent`, () => {
    const s = spec(c.text);
    const got = [s.minute, s.hour, s.dayOfMonth, s.month, s.dayOfWeek].map((f) => f.values);
    assert.deepEqual(got, c.fields);
  });
}

const everyCases = [
  { text: "@every 90s", seconds: 90 },
  { text: "@every 1h30m", seconds: 5400 },
  { text: "@every 1.9s", seconds: 1 },
  { text: "@every 500ms", seconds: 1 },
  { text: "@every -5s", seconds: 1 },
  { text: "@every 0", seconds: 1 },
];

for (const c of everyCases) {
  test(`parseCronSchedule: ${c.text} waits ${c.seconds}s (whole seconds, at least 1)`, () => {
    const schedule = parseCronSchedule(c.text);
    assert.equal(schedule.kind, "every");
    assert.equal(schedule.kind === "every" ? schedule.delaySeconds : 0, c.seconds);
  });
}

test("parseCronSchedule: a TZ= or CRON_TZ= prefix is kept as the schedule's location", () => {
  assert.equal(parseCronSchedule("TZ=America/New_York 0 9 * * *").location, "America/New_York");
  assert.equal(parseCronSchedule("CRON_TZ=UTC @daily").location, "UTC");
  assert.equal(parseCronSchedule("0 9 * * *").location, undefined);
});

const invalidCases: { text: string; message: string }[] = [
  { text: "", message: "empty spec string" },
  { text: "* * * *", message: "expected exactly 5 fields, found 4: [* * * *]" },
  { text: "0 * * * * *", message: "expected exactly 5 fields, found 6: [0 * * * * *]" },
  { text: "   ", message: "expected exactly 5 fields, found 0: []" },
  { text: "@foo", message: "unrecognized descriptor: @foo" },
  { text: "@daily ", message: "unrecognized descriptor: @daily " },
  { text: "@every", message: "unrecognized descriptor: @every" },
  { text: "0-60 * * * *", message: "end of range (60) above maximum (59): 0-60" },
  { text: "0 24 * * *", message: "end of range (24) above maximum (23): 24" },
  { text: "0 0 0 * *", message: "beginning of range (0) below minimum (1): 0" },
  { text: "0 0 32 * *", message: "end of range (32) above maximum (31): 32" },
  { text: "0 0 * 13 *", message: "end of range (13) above maximum (12): 13" },
  { text: "0 0 * * 7", message: "end of range (7) above maximum (6): 7" },
  { text: "5-3 * * * *", message: "beginning of range (5) beyond end of range (3): 5-3" },
  { text: "1-2-3 * * * *", message: "too many hyphens: 1-2-3" },
  { text: "*/2/3 * * * *", message: "too many slashes: */2/3" },
  { text: "*/0 * * * *", message: "step of range should be a positive number: */0" },
  { text: "*/-1 * * * *", message: "negative number (-1) not allowed: -1" },
  {
    text: "x * * * *",
    message: 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
  },
  {
    text: "0 0 * FOO *",
    message: 'failed to parse int from FOO: strconv.Atoi: parsing "FOO": invalid syntax',
  },
  {
    text: "1- * * * *",
    message: 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax',
  },
  {
    text: "99999999999999999999 * * * *",
    message:
      "failed to parse int from 99999999999999999999: " +
      'strconv.Atoi: parsing "99999999999999999999": value out of range',
  },
  {
    text: "@every x",
    message: 'failed to parse duration @every x: time: invalid duration "x"',
  },
  {
    text: "@every 1.5",
    message: 'failed to parse duration @every 1.5: time: missing unit in duration "1.5"',
  },
  {
    text: "@every 5q",
    message: 'failed to parse duration @every 5q: time: unknown unit "q" in duration "5q"',
  },
  {
    text: "TZ=Mars/Olympus * * * * *",
    message: "provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
  },
  { text: "TZ=UTC", message: "runtime error: slice bounds out of range [:-1]" },
];

for (const c of invalidCases) {
  test(`parseCronSchedule: ${JSON.stringify(c.text)} is rejected with robfig's text`, () => {
    assert.throws(() => parseCronSchedule(c.text), { message: c.message });
  });
}

const nextCases: { name: string; schedule: string; after: string; zone?: string; want?: string }[] =
  [
    {
      name: "every minute, sub-seconds truncated",
      schedule: "* * * * *",
      after: "2026-01-01T10:00:59.999Z",
      want: "2026-01-01T10:01:00.000Z",
    },
    {
      name: "*/15 from inside a quarter",
      schedule: "*/15 * * * *",
      after: "2026-01-01T10:07:30Z",
      want: "2026-01-01T10:15:00.000Z",
    },
    {
      name: "*/15 strictly after an activation",
      schedule: "*/15 * * * *",
      after: "2026-01-01T10:15:00Z",
      want: "2026-01-01T10:30:00.000Z",
    },
    {
      name: "a stepped range wraps to the next day",
      schedule: "0 9-17/2 * * *",
      after: "2026-01-01T17:30:00Z",
      want: "2026-01-02T09:00:00.000Z",
    },
    {
      name: "month and weekday names, day-of-month a star: both must match",
      schedule: "0 12 * JUN MON",
      after: "2026-01-01T00:00:00Z",
      want: "2026-06-01T12:00:00.000Z",
    },
    {
      name: "dom/dow both restricted: a Friday matches",
      schedule: "0 0 13 * FRI",
      after: "2026-01-01T00:00:00Z",
      want: "2026-01-02T00:00:00.000Z",
    },
    {
      name: "dom/dow both restricted: the 13th (a Tuesday) matches",
      schedule: "0 0 13 * FRI",
      after: "2026-01-09T00:00:00Z",
      want: "2026-01-13T00:00:00.000Z",
    },
    {
      name: "@yearly",
      schedule: "@yearly",
      after: "2026-06-01T00:00:00Z",
      want: "2027-01-01T00:00:00.000Z",
    },
    {
      name: "@weekly is Sunday midnight",
      schedule: "@weekly",
      after: "2026-01-07T00:00:00Z",
      want: "2026-01-11T00:00:00.000Z",
    },
    {
      name: "@every 90s counts from the whole second",
      schedule: "@every 90s",
      after: "2026-01-01T00:00:00.500Z",
      want: "2026-01-01T00:01:30.000Z",
    },
    {
      name: "leap day",
      schedule: "0 0 29 2 *",
      after: "2026-01-01T00:00:00Z",
      want: "2028-02-29T00:00:00.000Z",
    },
    {
      name: "gives up after five years",
      schedule: "0 0 30 2 *",
      after: "2026-01-01T00:00:00Z",
    },
    { name: "a field matching nothing", schedule: ", * * * *", after: "2026-01-01T00:00:00Z" },
    {
      name: "09:00 New York before spring-forward is 14:00Z (EST)",
      schedule: "0 9 * * *",
      after: "2026-03-06T15:00:00Z",
      zone: "America/New_York",
      want: "2026-03-07T14:00:00.000Z",
    },
    {
      name: "09:00 New York on spring-forward day is 13:00Z (EDT)",
      schedule: "0 9 * * *",
      after: "2026-03-07T15:00:00Z",
      zone: "America/New_York",
      want: "2026-03-08T13:00:00.000Z",
    },
    {
      name: "09:00 New York on fall-back day is 14:00Z (EST)",
      schedule: "0 9 * * *",
      after: "2026-10-31T14:00:00Z",
      zone: "America/New_York",
      want: "2026-11-01T14:00:00.000Z",
    },
    {
      name: "02:30 New York skips the spring-forward day (robfig never matches the lost hour)",
      schedule: "30 2 * * *",
      after: "2026-03-08T05:00:00Z",
      zone: "America/New_York",
      want: "2026-03-09T06:30:00.000Z",
    },
    {
      name: "01:30 New York on fall-back day: first the EDT 01:30",
      schedule: "30 1 * * *",
      after: "2026-11-01T04:00:00Z",
      zone: "America/New_York",
      want: "2026-11-01T05:30:00.000Z",
    },
    {
      name: "01:30 New York on fall-back day: then the EST 01:30 too",
      schedule: "30 1 * * *",
      after: "2026-11-01T05:30:00Z",
      zone: "America/New_York",
      want: "2026-11-01T06:30:00.000Z",
    },
    {
      name: "a schedule's own TZ= wins over the timeZone argument",
      schedule: "TZ=Asia/Tokyo 0 9 * * *",
      after: "2026-01-01T00:00:00Z",
      zone: "America/New_York",
      want: "2026-01-02T00:00:00.000Z",
    },
  ];

for (const c of nextCases) {
  test(`CronSchedule.next: ${c.name}`, () => {
    const got = parseCronSchedule(c.schedule).next(at(c.after), c.zone);
    assert.equal(
      got?.toISOString(),
      c.want,
      `${c.schedule} after ${c.after} in ${c.zone ?? "UTC"}`,
    );
  });
}

test("CronSchedule.next: a zone Intl does not know is a RangeError", () => {
  assert.throws(
    () => spec("0 9 * * *").next(at("2026-01-01T00:00:00Z"), "Mars/Olympus"),
    RangeError,
  );
});

const validationCases: {
  name: string;
  schedule: string;
  timeZone?: string;
  oldSchedule?: string;
  want: { field: string; kind: string; detail: string }[];
}[] = [
  { name: "a valid schedule", schedule: "0 9 * * *", want: [] },
  { name: "a valid zone", schedule: "0 9 * * *", timeZone: "Europe/Paris", want: [] },
  { name: "an alias zone", schedule: "0 9 * * *", timeZone: "US/Eastern", want: [] },
  {
    name: "an empty schedule is Required",
    schedule: "",
    want: [{ field: "schedule", kind: "Required", detail: "" }],
  },
  {
    name: "a bad schedule carries robfig's text",
    schedule: "0 0 * * 7",
    want: [{ field: "schedule", kind: "Invalid", detail: "end of range (7) above maximum (6): 7" }],
  },
  {
    name: "TZ= in the schedule",
    schedule: "TZ=UTC 0 9 * * *",
    want: [
      {
        field: "schedule",
        kind: "Invalid",
        detail: "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
      },
    ],
  },
  {
    name: "CRON_TZ= with a bad zone: both errors",
    schedule: "CRON_TZ=Mars/Olympus 0 9 * * *",
    want: [
      {
        field: "schedule",
        kind: "Invalid",
        detail: "provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
      },
      {
        field: "schedule",
        kind: "Invalid",
        detail: "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
      },
    ],
  },
  {
    name: "an update may keep a TZ= the old schedule had",
    schedule: "TZ=UTC 0 10 * * *",
    oldSchedule: "TZ=UTC 0 9 * * *",
    want: [],
  },
  {
    name: "an update keeping TZ= may not add timeZone",
    schedule: "TZ=UTC 0 9 * * *",
    timeZone: "UTC",
    oldSchedule: "TZ=UTC 0 9 * * *",
    want: [
      {
        field: "schedule",
        kind: "Invalid",
        detail: "cannot use both timeZone field and TZ or CRON_TZ in schedule",
      },
    ],
  },
  {
    name: "an unknown zone",
    schedule: "0 9 * * *",
    timeZone: "Mars/Olympus",
    want: [{ field: "timeZone", kind: "Invalid", detail: "unknown time zone Mars/Olympus" }],
  },
  {
    name: "Local is refused",
    schedule: "0 9 * * *",
    timeZone: "Local",
    want: [
      {
        field: "timeZone",
        kind: "Invalid",
        detail:
          "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
      },
    ],
  },
  {
    name: "local is refused and not loadable either",
    schedule: "0 9 * * *",
    timeZone: "local",
    want: [
      {
        field: "timeZone",
        kind: "Invalid",
        detail:
          "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
      },
      { field: "timeZone", kind: "Invalid", detail: "unknown time zone local" },
    ],
  },
  {
    name: "an empty zone",
    schedule: "0 9 * * *",
    timeZone: "",
    want: [
      { field: "timeZone", kind: "Invalid", detail: "timeZone must be nil or non-empty string" },
    ],
  },
];

for (const c of validationCases) {
  test(`validateCronSchedule: ${c.name}`, () => {
    assert.deepEqual(validateCronSchedule(c.schedule, c.timeZone, c.oldSchedule), c.want);
  });
}

const zoneCases: { zone: string; want: string | undefined }[] = [
  { zone: "UTC", want: undefined },
  { zone: "America/Argentina/Buenos_Aires", want: undefined },
  { zone: "Etc/GMT+5", want: undefined },
  { zone: "/etc/localtime", want: "unknown time zone /etc/localtime" },
  { zone: "America/New York", want: "unknown time zone America/New York" },
  { zone: "America/../UTC", want: "unknown time zone America/../UTC" },
  { zone: "-UTC", want: "unknown time zone -UTC" },
  { zone: "Europe/Ka..liningrad", want: "time: invalid location name" },
  { zone: "america/new_york", want: "unknown time zone america/new_york" },
  { zone: "utc", want: "unknown time zone utc" },
  { zone: "PST", want: "unknown time zone PST" },
];

for (const c of zoneCases) {
  test(`validateTimeZone: ${JSON.stringify(c.zone)}`, () => {
    assert.equal(validateTimeZone(c.zone), c.want);
  });
}

test("loadLocationError: Go's LoadLocation accepts '', UTC and Local", () => {
  assert.equal(loadLocationError(""), undefined);
  assert.equal(loadLocationError("UTC"), undefined);
  assert.equal(loadLocationError("Local"), undefined);
  assert.equal(loadLocationError("Nowhere"), "unknown time zone Nowhere");
});

const everyMinute = parseCronSchedule("* * * * *");

const recentCases: {
  name: string;
  schedule?: CronSchedule;
  created?: string;
  last?: string;
  deadline?: number;
  now: string;
  zone?: string;
  want: { earliest: string; mostRecent?: string; missed: string; error?: string };
}[] = [
  {
    name: "none missed before the first activation",
    now: "2026-01-01T10:00:50Z",
    want: { earliest: "2026-01-01T10:00:30.000Z", missed: "none" },
  },
  {
    name: "one due is still 'none' upstream",
    now: "2026-01-01T10:01:10Z",
    want: {
      earliest: "2026-01-01T10:00:30.000Z",
      mostRecent: "2026-01-01T10:01:00.000Z",
      missed: "none",
    },
  },
  {
    name: "a few missed",
    now: "2026-01-01T10:05:10Z",
    want: {
      earliest: "2026-01-01T10:00:30.000Z",
      mostRecent: "2026-01-01T10:05:00.000Z",
      missed: "few",
    },
  },
  {
    name: "many missed: every minute for three hours",
    now: "2026-01-01T13:00:30Z",
    want: {
      earliest: "2026-01-01T10:00:30.000Z",
      mostRecent: "2026-01-01T13:00:00.000Z",
      missed: "many",
    },
  },
  {
    name: "startingDeadlineSeconds cuts the window",
    deadline: 200,
    now: "2026-01-01T13:00:30Z",
    want: {
      earliest: "2026-01-01T12:57:10.000Z",
      mostRecent: "2026-01-01T13:00:00.000Z",
      missed: "few",
    },
  },
  {
    name: "lastScheduleTime after creation is the start",
    schedule: parseCronSchedule("0 9 * * *"),
    created: "2026-01-01T00:00:00Z",
    last: "2026-01-05T09:00:00Z",
    now: "2026-01-05T12:00:00Z",
    want: { earliest: "2026-01-05T09:00:00.000Z", missed: "none" },
  },
  {
    name: "lastScheduleTime, hourly, a day later",
    schedule: parseCronSchedule("@hourly"),
    created: "2026-01-01T00:00:00Z",
    last: "2026-01-05T09:00:00Z",
    now: "2026-01-06T09:30:00Z",
    want: {
      earliest: "2026-01-05T09:00:00.000Z",
      mostRecent: "2026-01-06T09:00:00.000Z",
      missed: "few",
    },
  },
  {
    name: "@every from the estimate",
    schedule: parseCronSchedule("@every 1h"),
    created: "2026-01-01T10:00:00.500Z",
    now: "2026-01-01T13:30:00Z",
    want: {
      earliest: "2026-01-01T10:00:00.500Z",
      mostRecent: "2026-01-01T13:00:00.000Z",
      missed: "few",
    },
  },
  {
    name: "the estimate across a DST change still finds the exact last run",
    schedule: parseCronSchedule("0 9 * * *"),
    created: "2026-03-07T00:00:00Z",
    now: "2026-03-10T15:00:00Z",
    zone: "America/New_York",
    want: {
      earliest: "2026-03-07T00:00:00.000Z",
      mostRecent: "2026-03-10T13:00:00.000Z",
      missed: "few",
    },
  },
  {
    name: "a schedule that never fires is upstream's error",
    schedule: parseCronSchedule("0 0 30 2 *"),
    now: "2026-01-01T13:00:30Z",
    want: {
      earliest: "2026-01-01T10:00:30.000Z",
      missed: "none",
      error: "time difference between two schedules is less than 1 second",
    },
  },
];

for (const c of recentCases) {
  test(`mostRecentScheduleTime: ${c.name}`, () => {
    const got = mostRecentScheduleTime({
      creationTimestamp: at(c.created ?? "2026-01-01T10:00:30Z"),
      lastScheduleTime: c.last === undefined ? undefined : at(c.last),
      startingDeadlineSeconds: c.deadline,
      now: at(c.now),
      schedule: c.schedule ?? everyMinute,
      timeZone: c.zone,
    });
    assert.deepEqual(
      {
        earliest: got.earliest.toISOString(),
        ...(got.mostRecent === undefined ? {} : { mostRecent: got.mostRecent.toISOString() }),
        missed: got.missed,
        ...(got.error === undefined ? {} : { error: got.error }),
      },
      c.want,
    );
  });
}

const requeueCases: { name: string; schedule?: CronSchedule; now: string; want?: string }[] = [
  { name: "before the first run: that run", now: "2026-01-01T10:00:50Z", want: "10:01:00" },
  { name: "one run due: the one after it", now: "2026-01-01T10:01:10Z", want: "10:02:00" },
  { name: "runs missed: the next after now", now: "2026-01-01T13:00:30Z", want: "13:01:00" },
  {
    name: "an erroring schedule",
    schedule: parseCronSchedule("0 0 30 2 *"),
    now: "2026-01-01T13:00:30Z",
  },
];

for (const c of requeueCases) {
  test(`nextScheduleTime: ${c.name}`, () => {
    const got = nextScheduleTime({
      creationTimestamp: at("2026-01-01T10:00:30Z"),
      startingDeadlineSeconds: 5,
      now: at(c.now),
      schedule: c.schedule ?? everyMinute,
    });
    const want = c.want === undefined ? undefined : `2026-01-01T${c.want}.000Z`;
    assert.equal(got?.toISOString(), want);
  });
}
