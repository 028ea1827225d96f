/** The two channels whose statistics share the Reports and Log screens. */
export type StatisticsChannel = 'email' | 'sms';
