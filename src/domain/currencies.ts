/**
 * The currencies afford knows: the active ISO 4217 codes (funds, precious
 * metals and SDRs included; XTS "testing" and XXX "no currency" left out).
 * A currency outside this list is a mistake, and asking for one is an error,
 * not an empty report; a listed currency with no data gives zero figures.
 */
const ISO_4217 = `
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV
BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK
DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL
HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR
MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF
SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND
TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG
XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG ZWL
`;

export const CURRENCIES: ReadonlySet<string> = new Set(ISO_4217.split(/\s+/).filter((c) => c !== ''));

export function isKnownCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}

export const UNKNOWN_CURRENCY_MESSAGE = 'must be an ISO 4217 currency code such as GBP';
