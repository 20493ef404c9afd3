"""The six countries the service serves, and the rules that follow from each.

Social insurance rates are percentages of the contributory wage, split into the
employee's share (deducted from pay) and the employer's share (a cost on top of pay).
They cover the schemes a payroll in that country withholds every month; the source of
each figure is named beside it. Rates change by law: check them before relying on a
sandbox's figures for anything but integration testing.
"""

from dataclasses import dataclass
from decimal import Decimal

from app.domain.kernel.errors import Words


@dataclass(frozen=True)
class Contribution:
    employee: Decimal
    employer: Decimal


@dataclass(frozen=True)
class Country:
    code: str
    name_en: str
    name_ar: str
    currency: str
    timezone: str
    weekend: tuple[int, ...]  # ISO weekday numbers: Monday 1 .. Sunday 7
    nationals: Contribution
    expatriates: Contribution
    # Components of pay that make up the contributory wage.
    contributory: tuple[str, ...]
    # Monthly ceiling on the contributory wage, in minor units (None: no ceiling used).
    contributory_ceiling: int | None
    national_first_names: tuple[tuple[str, str], ...]  # (en, ar)
    national_family_names: tuple[tuple[str, str], ...]  # (en, ar)
    nationality: str


D = Decimal

COUNTRIES = {
    "KW": Country(
        code="KW", name_en="Kuwait", name_ar="الكويت", currency="KWD", timezone="Asia/Kuwait",
        weekend=(5, 6),
        # PIFSS (Public Institution for Social Security), contribution table for Kuwaiti
        # private-sector employees: employee 10.5%, employer 11.5% of salary up to the
        # KWD 2,750 ceiling. Expatriates are outside PIFSS (end-of-service gratuity instead).
        nationals=Contribution(D("10.5"), D("11.5")),
        expatriates=Contribution(D("0"), D("0")),
        contributory=("basic", "housing", "transport"),
        contributory_ceiling=2_750_000,
        national_first_names=(("Abdullah", "عبدالله"), ("Fahad", "فهد"), ("Noura", "نورة"),
                              ("Dalal", "دلال"), ("Yousef", "يوسف"), ("Mariam", "مريم")),
        national_family_names=(("Al-Sabah", "الصباح"), ("Al-Mutairi", "المطيري"),
                               ("Al-Azmi", "العازمي"), ("Al-Rashidi", "الرشيدي")),
        nationality="KW",
    ),
    "SA": Country(
        code="SA", name_en="Saudi Arabia", name_ar="المملكة العربية السعودية", currency="SAR",
        timezone="Asia/Riyadh", weekend=(5, 6),
        # GOSI (General Organization for Social Insurance): Saudi employees pay 9% annuities
        # + 0.75% SANED = 9.75%; employers pay 9% + 0.75% SANED + 2% occupational hazards
        # = 11.75%, on basic + housing up to SAR 45,000. Expatriates: employer 2% hazards only.
        nationals=Contribution(D("9.75"), D("11.75")),
        expatriates=Contribution(D("0"), D("2")),
        contributory=("basic", "housing"),
        contributory_ceiling=4_500_000,
        national_first_names=(("Mohammed", "محمد"), ("Faisal", "فيصل"), ("Sara", "سارة"),
                              ("Reem", "ريم"), ("Khalid", "خالد"), ("Lama", "لمى")),
        national_family_names=(("Al-Qahtani", "القحطاني"), ("Al-Ghamdi", "الغامدي"),
                               ("Al-Harbi", "الحربي"), ("Al-Otaibi", "العتيبي")),
        nationality="SA",
    ),
    "AE": Country(
        code="AE", name_en="United Arab Emirates", name_ar="الإمارات العربية المتحدة",
        currency="AED", timezone="Asia/Dubai",
        # Federal weekend moved to Saturday and Sunday on 1 January 2022.
        weekend=(6, 7),
        # GPSSA, Federal Decree-Law No. 57 of 2023 (members insured from 31 October 2023):
        # employee 11%, employer 12.5% (the government's 2.5% is not charged to payroll).
        # Expatriates are outside GPSSA.
        nationals=Contribution(D("11"), D("12.5")),
        expatriates=Contribution(D("0"), D("0")),
        contributory=("basic", "housing", "transport"),
        contributory_ceiling=None,
        national_first_names=(("Hamdan", "حمدان"), ("Saeed", "سعيد"), ("Maitha", "ميثاء"),
                              ("Shamma", "شمّة"), ("Rashid", "راشد"), ("Hessa", "حصة")),
        national_family_names=(("Al-Mansoori", "المنصوري"), ("Al-Ketbi", "الكتبي"),
                               ("Al-Shamsi", "الشامسي"), ("Al-Dhaheri", "الظاهري")),
        nationality="AE",
    ),
    "QA": Country(
        code="QA", name_en="Qatar", name_ar="قطر", currency="QAR", timezone="Asia/Qatar",
        weekend=(5, 6),
        # GRSIA (General Retirement and Social Insurance Authority), Law No. 1 of 2022:
        # Qatari employees 7%, employers 14%. Expatriates are outside GRSIA.
        nationals=Contribution(D("7"), D("14")),
        expatriates=Contribution(D("0"), D("0")),
        contributory=("basic", "housing", "transport"),
        contributory_ceiling=None,
        national_first_names=(("Tamim", "تميم"), ("Jassim", "جاسم"), ("Aisha", "عائشة"),
                              ("Moza", "موزة"), ("Hamad", "حمد"), ("Al-Anoud", "العنود")),
        national_family_names=(("Al-Thani", "آل ثاني"), ("Al-Kuwari", "الكواري"),
                               ("Al-Marri", "المري"), ("Al-Sulaiti", "السليطي")),
        nationality="QA",
    ),
    "BH": Country(
        code="BH", name_en="Bahrain", name_ar="البحرين", currency="BHD", timezone="Asia/Bahrain",
        weekend=(5, 6),
        # SIO (Social Insurance Organization): Bahraini employees 7% pension + 1%
        # unemployment = 8%; employers 12% pension + 3% occupational injury + 1%
        # unemployment = 16%. Expatriates: employee 1% unemployment; employer 3% injury
        # + 1% unemployment = 4%.
        nationals=Contribution(D("8"), D("16")),
        expatriates=Contribution(D("1"), D("4")),
        contributory=("basic", "housing", "transport"),
        contributory_ceiling=4_000_000,
        national_first_names=(("Ali", "علي"), ("Hasan", "حسن"), ("Fatima", "فاطمة"),
                              ("Zainab", "زينب"), ("Salman", "سلمان"), ("Latifa", "لطيفة")),
        national_family_names=(("Al-Khalifa", "آل خليفة"), ("Al-Mahmood", "المحمود"),
                               ("Al-Dosari", "الدوسري"), ("Al-Sayed", "السيد")),
        nationality="BH",
    ),
    "OM": Country(
        code="OM", name_en="Oman", name_ar="عُمان", currency="OMR", timezone="Asia/Muscat",
        weekend=(5, 6),
        # Social Protection Fund, Social Protection Law (Royal Decree 52/2023): Omani
        # employees 7% old-age + 1% job security = 8%; employers 10.5% old-age + 1%
        # occupational injury + 1% job security = 12.5%. Expatriates: employer 1%
        # occupational injury.
        nationals=Contribution(D("8"), D("12.5")),
        expatriates=Contribution(D("0"), D("1")),
        contributory=("basic", "housing", "transport"),
        contributory_ceiling=3_000_000,
        national_first_names=(("Said", "سعيد"), ("Sultan", "سلطان"), ("Aziza", "عزيزة"),
                              ("Thuraya", "ثريا"), ("Haitham", "هيثم"), ("Shaima", "شيماء")),
        national_family_names=(("Al-Busaidi", "البوسعيدي"), ("Al-Balushi", "البلوشي"),
                               ("Al-Harthy", "الحارثي"), ("Al-Hinai", "الهنائي")),
        nationality="OM",
    ),
}

# Expatriate naming pools: (nationality, first names, family names). Arabic forms are
# given for Arab nationalities; for others `name.ar` is null, as HR systems usually hold.
EXPATRIATE_POOLS = (
    ("IN", ("Arjun", "Priya", "Rahul", "Anitha", "Vikram", "Deepa"),
     ("Nair", "Sharma", "Menon", "Iyer", "Reddy")),
    ("PH", ("Maria", "Jose", "Angelica", "Mark", "Kristine", "Paolo"),
     ("Santos", "Reyes", "Cruz", "Bautista", "Garcia")),
    ("PK", ("Imran", "Ayesha", "Bilal", "Sana", "Usman", "Hina"),
     ("Khan", "Qureshi", "Malik", "Siddiqui", "Butt")),
    ("EG", (("Ahmed", "أحمد"), ("Mona", "منى"), ("Omar", "عمر"), ("Heba", "هبة"), ("Karim", "كريم")),
     (("Hassan", "حسن"), ("Mostafa", "مصطفى"), ("Fathy", "فتحي"), ("Saleh", "صالح"))),
    ("JO", (("Laith", "ليث"), ("Rania", "رانيا"), ("Zaid", "زيد"), ("Dana", "دانة"), ("Tariq", "طارق")),
     (("Haddad", "حداد"), ("Khoury", "خوري"), ("Nasser", "ناصر"), ("Odeh", "عودة"))),
    ("GB", ("James", "Emma", "Oliver", "Sophie", "Thomas", "Hannah"),
     ("Taylor", "Evans", "Wright", "Walker", "Hughes")),
)

COUNTRY_CODES = tuple(COUNTRIES)


def get_country(code: str) -> Country:
    try:
        return COUNTRIES[code.upper()]
    except (KeyError, AttributeError):
        raise ValueError(  # its words are what the callers refuse with (ValidationFailed)
            Words("unknown country %(value)r; expected one of %(choices)s", value=code,
                  choices=", ".join(COUNTRY_CODES))
        ) from None


@dataclass(frozen=True)
class Agency:
    """The social-insurance agency of a country: each bills separately, so what is owed to
    it (both shares, and Bahrain's end-of-service contribution) is a payable of its own,
    and the employer's share an expense of its own (docs/reference/pay-for-part-months.md)."""

    short: str  # as payrolls and statements name it
    name_en: str
    key: str  # the payable's stable account key, the same in every company
    payable: tuple[str, str]  # (account code, account name)
    expense: tuple[str, str]  # the employer's share
    # The two accounts' Arabic names: the agency as Gulf payrolls call it (its official
    # name where short enough), the country beside it where two agencies share a name.
    accounts_ar: tuple[str, str]


AGENCIES = {
    "SA": Agency("GOSI", "General Organization for Social Insurance", "social_insurance_payable_gosi",
                 ("2121", "GOSI payable"), ("5201", "GOSI employer contributions"),
                 ("اشتراكات مستحقة للتأمينات الاجتماعية (السعودية)",
                  "اشتراكات صاحب العمل في التأمينات الاجتماعية (السعودية)")),
    "KW": Agency("PIFSS", "Public Institution for Social Security", "social_insurance_payable_pifss",
                 ("2122", "PIFSS payable"), ("5202", "PIFSS employer contributions"),
                 ("اشتراكات مستحقة للتأمينات الاجتماعية (الكويت)",
                  "اشتراكات صاحب العمل في التأمينات الاجتماعية (الكويت)")),
    "AE": Agency("GPSSA", "General Pension and Social Security Authority", "social_insurance_payable_gpssa",
                 ("2123", "GPSSA payable"), ("5203", "GPSSA employer contributions"),
                 ("اشتراكات مستحقة لهيئة المعاشات والتأمينات الاجتماعية",
                  "اشتراكات صاحب العمل في هيئة المعاشات والتأمينات الاجتماعية")),
    "QA": Agency("GRSIA", "General Retirement and Social Insurance Authority", "social_insurance_payable_grsia",
                 ("2124", "GRSIA payable"), ("5204", "GRSIA employer contributions"),
                 ("اشتراكات مستحقة لهيئة التقاعد والتأمينات الاجتماعية",
                  "اشتراكات صاحب العمل في هيئة التقاعد والتأمينات الاجتماعية")),
    "BH": Agency("SIO", "Social Insurance Organization", "social_insurance_payable_sio",
                 ("2125", "SIO payable"), ("5205", "SIO employer contributions"),
                 ("اشتراكات مستحقة لهيئة التأمين الاجتماعي",
                  "اشتراكات صاحب العمل في هيئة التأمين الاجتماعي")),
    "OM": Agency("SPF", "Social Protection Fund", "social_insurance_payable_spf",
                 ("2126", "SPF payable"), ("5206", "SPF employer contributions"),
                 ("اشتراكات مستحقة لصندوق الحماية الاجتماعية",
                  "اشتراكات صاحب العمل في صندوق الحماية الاجتماعية")),
}
