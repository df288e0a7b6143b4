"""New York's property type classification codes, as the assessment rolls carry them.

Every parcel on a New York assessment roll carries a three-digit code chosen by the assessor
from one statewide list kept by the Office of Real Property Tax Services (ORPTS, Department of
Taxation and Finance). The first digit is the broad category (1 agricultural ... 9 wild,
forested and conservation land and public parks), the second the division inside it, the third
the subdivision where the list has one; a code ending in 0 (or 00) names the division (or the
category) itself, for a property the assessor cannot place more finely.

Sources, read for this table (the labels below are this project's short wording, not copies):

- ORPTS, "Property type classification codes", Assessors' Manual,
  https://www.tax.ny.gov/research/property/assess/manuals/prclas.htm (the nine categories,
  the division/subdivision structure and the codes of each category);
- ORPTS, "Distribution of parcels by property class code" (2019 assessment rolls),
  https://www.tax.ny.gov/research/property/reports/parcels/2019/distppc.htm (some 300 codes
  valid on the rolls; codes outside the list are counted there as invalid);
- ORPTS, utility valuation manual, "IV. Property class codes",
  https://nystax.gov/research/property/valuation/ucars/classcod.htm (the 740, 820-880
  series; the old 810 series of electric and gas codes was withdrawn in 2002 for the 870 and
  880 series, and RPS flags it, so it is not accepted here).

Only parts of these pages could be read when the table was made (and a third-party copy of
the manual's list, which agreed with them where both were seen); the rest of the divisions
(for example the 720 and 730 mining and well codes, the 860 special franchise codes, the 990
State land codes) were filled from the manual's structure as the author knows it, and are the
part to check against the manual first. A genuine code missing here shows itself: the row is
refused with the code named (``unknown property class '…'``), and the code is added below.

Sub-codes: the manual lets a municipality add its own finer coding beyond the State's three
digits. A roll value such as ``2101``, ``210-1``, ``210.A`` or ``210 A`` is therefore read as
the State code ``210`` followed by a local sub-code, which is dropped: the State code is what
the office keeps. The three digits must still be a code of this table, else the row is
refused (nothing is guessed: ``999`` or ``2x0`` is never mapped to something near it).
"""

from __future__ import annotations

import re
from typing import Final

#: The nine broad-use categories, by the code's first digit.
CATEGORIES: Final[dict[str, str]] = {
    "1": "Agricultural",
    "2": "Residential",
    "3": "Vacant land",
    "4": "Commercial",
    "5": "Recreation and entertainment",
    "6": "Community services",
    "7": "Industrial",
    "8": "Public services",
    "9": "Wild, forested, conservation lands and public parks",
}

#: Every code of the statewide list and its label.
CODES: Final[dict[str, str]] = {
    # 100 agricultural
    "100": "Agricultural",
    "105": "Agricultural vacant land (productive)",
    "110": "Livestock and products",
    "111": "Poultry and poultry products",
    "112": "Dairy products",
    "113": "Cattle, calves, hogs",
    "114": "Sheep and wool",
    "115": "Honey and beeswax",
    "116": "Other livestock",
    "117": "Horse farms",
    "120": "Field crops",
    "129": "Acquired development rights",
    "130": "Truck crops, mucklands",
    "140": "Truck crops, not mucklands",
    "150": "Orchard crops",
    "151": "Apples, pears, peaches, cherries and the like",
    "152": "Vineyards",
    "160": "Other fruits",
    "170": "Nursery and greenhouse",
    "180": "Specialty farms",
    "181": "Fur products",
    "182": "Pheasant and other game birds",
    "183": "Aquatic (oyster lands, fish, aquatic plants)",
    "184": "Other livestock (deer, llamas, bison and the like)",
    "190": "Fish, game and wildlife preserves",
    # 200 residential
    "200": "Residential",
    "210": "One-family year-round residence",
    "215": "One-family year-round residence with accessory apartment",
    "220": "Two-family year-round residence",
    "230": "Three-family year-round residence",
    "240": "Rural residence with acreage",
    "241": "Rural residence, also used in agricultural production",
    "242": "Rural residence, recreational use",
    "250": "Estate",
    "260": "Seasonal residence",
    "270": "Mobile home",
    "271": "Multiple mobile homes",
    "280": "Residential, multi-purpose or multi-structure",
    "281": "Multiple residences",
    "283": "Residence with incidental commercial use",
    # 300 vacant land
    "300": "Vacant land",
    "310": "Residential vacant land (division)",
    "311": "Residential vacant land",
    "312": "Residential land with a small improvement",
    "313": "Waterfront vacant land",
    "314": "Rural vacant lot of 10 acres or less",
    "315": "Underwater vacant land",
    "316": "Waterfront land with a small improvement",
    "320": "Rural vacant land",
    "321": "Abandoned agricultural land",
    "322": "Residential vacant land over 10 acres",
    "323": "Other rural vacant land",
    "330": "Vacant land in a commercial area",
    "331": "Commercial vacant land with minor improvements",
    "340": "Vacant land in an industrial area",
    "341": "Industrial vacant land with minor improvements",
    "350": "Urban renewal or slum clearance",
    "351": "Shell building, residential",
    "352": "Shell building, commercial",
    "380": "Public utility vacant land",
    # 400 commercial
    "400": "Commercial",
    "410": "Living accommodations",
    "411": "Apartments",
    "414": "Hotel",
    "415": "Motel",
    "416": "Mobile home park",
    "417": "Camps, cottages, bungalows",
    "418": "Inns, lodges, boarding houses, tourist homes, fraternity and sorority houses",
    "420": "Dining establishments",
    "421": "Restaurant",
    "422": "Diner or luncheonette",
    "423": "Snack bar, drive-in, ice cream stand",
    "424": "Night club",
    "425": "Bar",
    "426": "Fast-food franchise",
    "430": "Motor vehicle services",
    "431": "Auto dealer, sales and service",
    "432": "Service or gas station",
    "433": "Auto body, tire shop, other auto-related sales",
    "434": "Automatic car wash",
    "435": "Manual car wash",
    "436": "Self-service car wash",
    "437": "Parking garage",
    "438": "Parking lot",
    "439": "Small parking garage",
    "440": "Storage, warehouse and distribution",
    "441": "Fuel storage and distribution",
    "442": "Mini-warehouse (self-storage)",
    "443": "Grain and feed elevators, mixers, sales outlets",
    "444": "Lumber yard, sawmill",
    "445": "Coal yard, bins",
    "446": "Cold storage",
    "447": "Trucking terminal",
    "448": "Piers, wharves, docks",
    "449": "Other storage, warehouse and distribution",
    "450": "Retail services",
    "451": "Regional shopping center",
    "452": "Area or neighborhood shopping center",
    "453": "Large retail outlet",
    "454": "Large retail food store",
    "455": "Dealership, sales and service (other than auto)",
    "456": "Medium retail",
    "457": "Small retail",
    "460": "Banks and office buildings",
    "461": "Bank, standard or single occupant",
    "462": "Drive-in branch bank",
    "463": "Bank complex with office building",
    "464": "Office building",
    "465": "Professional building",
    "470": "Miscellaneous services",
    "471": "Funeral home",
    "472": "Dog kennel, veterinary clinic",
    "473": "Greenhouse",
    "474": "Billboard",
    "475": "Junkyard",
    "480": "Multiple use or multipurpose",
    "481": "Downtown row type (common wall)",
    "482": "Downtown row type (detached)",
    "483": "Converted residence",
    "484": "One-story small structure",
    "485": "One-story small structure, several occupants",
    "486": "Minimart",
    # 500 recreation and entertainment
    "500": "Recreation and entertainment",
    "510": "Entertainment assembly",
    "511": "Legitimate theater",
    "512": "Motion picture theater",
    "513": "Drive-in theater",
    "514": "Auditorium, exhibition or exposition hall",
    "515": "Radio, television or motion picture studio",
    "520": "Sports assembly",
    "521": "Stadium, arena, armory, field house",
    "522": "Racetrack",
    "530": "Amusement facilities",
    "531": "Fairground",
    "532": "Amusement park",
    "533": "Game farm",
    "534": "Social organization",
    "540": "Indoor sports facilities",
    "541": "Bowling center",
    "542": "Ice or roller skating rink",
    "543": "YMCA, YWCA and the like",
    "544": "Health spa",
    "545": "Indoor swimming pool",
    "546": "Other indoor sports",
    "550": "Outdoor sports activities",
    "551": "Skiing center",
    "552": "Public golf course",
    "553": "Private golf or country club",
    "554": "Outdoor swimming pool",
    "555": "Riding stable",
    "557": "Other outdoor sports",
    "560": "Improved beach",
    "570": "Marina",
    "580": "Camps, camping facilities and resorts",
    "581": "Camp",
    "582": "Camping facility",
    "583": "Resort complex",
    "590": "Parks",
    "591": "Playground",
    "592": "Athletic field",
    "593": "Picnic ground",
    # 600 community services
    "600": "Community services",
    "610": "Education",
    "611": "Library",
    "612": "School",
    "613": "College or university",
    "614": "Special school or institution",
    "615": "Other educational facility",
    "620": "Religious",
    "630": "Welfare",
    "631": "Orphanage",
    "632": "Benevolent or moral association",
    "633": "Home for the aged",
    "640": "Health",
    "641": "Hospital",
    "642": "Other health facility",
    "650": "Government",
    "651": "Highway garage",
    "652": "Government office building",
    "653": "Government parking lot",
    "660": "Protection",
    "661": "Military installation",
    "662": "Police or fire protection, civil defense",
    "670": "Correctional",
    "680": "Cultural and recreational",
    "681": "Cultural facility",
    "682": "Recreational facility",
    "690": "Miscellaneous community services",
    "691": "Professional association",
    "692": "Roads, streets, highways, parkways",
    "693": "Indian reservation",
    "694": "Animal welfare shelter",
    "695": "Cemetery",
    # 700 industrial
    "700": "Industrial",
    "710": "Manufacturing and processing",
    "712": "High-technology manufacturing and processing",
    "714": "Light industrial manufacturing and processing",
    "720": "Mining and quarrying",
    "721": "Sand and gravel",
    "722": "Limestone",
    "723": "Trap rock",
    "724": "Salt",
    "725": "Iron and titanium",
    "726": "Lead and zinc",
    "727": "Talc",
    "729": "Other mining",
    "730": "Wells",
    "731": "Oil well, natural flow",
    "732": "Oil well, forced flow",
    "733": "Gas well",
    "734": "Junk well",
    "735": "Water injection well",
    "736": "Gas storage well",
    "740": "Industrial product pipelines",
    "741": "Gas pipeline",
    "742": "Water pipeline",
    "743": "Brine pipeline",
    "744": "Petroleum products pipeline",
    "749": "Other pipeline",
    # 800 public services
    "800": "Public services",
    "820": "Water",
    "821": "Flood control",
    "822": "Water supply",
    "823": "Water treatment facility",
    "826": "Water transmission improvement",
    "827": "Water distribution (outside plant)",
    "830": "Communication",
    "831": "Telephone facility",
    "832": "Telegraph",
    "833": "Radio",
    "834": "Television other than cable",
    "835": "Cable television facility",
    "836": "Telephone outside plant",
    "837": "Cellular telephone tower",
    "840": "Transportation",
    "841": "Motor vehicle transportation",
    "842": "Ceiling railroad",
    "843": "Non-ceiling railroad",
    "844": "Air transportation",
    "845": "Water transportation",
    "846": "Bridges, tunnels, subways",
    "850": "Waste disposal",
    "851": "Solid waste",
    "852": "Landfill or dump",
    "853": "Sewage treatment and water pollution control",
    "854": "Air pollution control",
    "860": "Special franchise property",
    "861": "Special franchise, electric and gas",
    "862": "Special franchise, water",
    "866": "Special franchise, telephone",
    "867": "Special franchise, miscellaneous",
    "868": "Special franchise, pipelines",
    "869": "Special franchise, television",
    "870": "Electric and gas",
    "871": "Electric and gas facilities",
    "872": "Electric substation",
    "873": "Gas measuring and regulating station",
    "874": "Electric generation, hydro",
    "875": "Electric generation, fossil fuel",
    "876": "Electric generation, nuclear",
    "877": "Electric generation, other fuel",
    "878": "Electric generation, solar",
    "880": "Electric and gas transmission and distribution",
    "882": "Electric transmission improvement",
    "883": "Gas transmission improvement",
    "884": "Electric distribution (outside plant)",
    "885": "Gas distribution (outside plant)",
    # 900 wild, forested, conservation lands and public parks
    "900": "Wild, forested, conservation lands and public parks",
    "910": "Private wild and forest land (not hunting or fishing clubs)",
    "911": "Forest land under RPTL 480",
    "912": "Forest land under RPTL 480-a",
    "920": "Private hunting and fishing club",
    "930": "State-owned forest land",
    "931": "State forest preserve land taxable under RPTL 532-a",
    "932": "Other State land taxable under RPTL 532-b to 532-g",
    "940": "Reforested land and related conservation uses",
    "941": "State-owned reforested land taxable under RPTL 534 and 536",
    "942": "County-owned reforested land",
    "950": "Hudson River and Black River regulating district land",
    "960": "Public parks",
    "961": "State-owned public park or recreation area",
    "962": "County-owned public park or recreation area",
    "963": "City, town or village public park or recreation area",
    "970": "Other wild or conservation land",
    "971": "Wetlands with restrictions on use",
    "972": "Land under water (other than residential, see 315)",
    "980": "Taxable State-owned conservation easement",
    "990": "Other taxable State land assessment",
    "993": "Transition assessment for exempt State land",
    "994": "Transition assessment for taxable State land",
}

#: A roll value: the State's three digits, then optionally a local sub-code (up to three
#: letters or digits, after an optional ``-``, ``.``, ``/`` or space).
_VALUE = re.compile(r"(?P<code>\d{3})(?:[-./ ]?[0-9A-Za-z]{1,3})?")


def category(code: str) -> str:
    """The broad category of a code (``"421"`` → ``"Commercial"``)."""
    return CATEGORIES[code[0]]


def label(code: str) -> str:
    """The label of a code of the table (``KeyError`` for any other)."""
    return CODES[code]


def read_class(value: str) -> tuple[str | None, str | None]:
    """A roll's property class value → ``(code, None)`` or ``(None, the reason in words)``.

    ``value`` is the cell's text, already stripped; a local sub-code after the State's three
    digits is dropped (module docstring)."""
    match = _VALUE.fullmatch(value)
    if match is None:
        return None, f"'{value}' is not a property class code (three digits)"
    code = match["code"]
    if code not in CODES:
        return None, f"unknown property class '{code}'"
    return code, None
