"""The reporting corpus of ``benchmarks/privacy.py``: invented sentences, never used to tune the detector.

``tests/privacy_corpus.py`` and the examples in ``tests/test_privacy_*.py`` are what the detector was
written against (tuning). These sentences were written apart, for measuring only: a failure here
is reported, not patched by adding this sentence's words to a lexicon. Tove Arnesen and everyone
else here is made up.

``PERSONAL``: (sentence, the secret that must never leave). ``PUBLIC``: (sentence, a public entity an
enrichment lookup may carry, or None).
"""

from __future__ import annotations

PERSONAL: list[tuple[str, str]] = [
    # contact details
    ("Text me on 0161 496 0732 if the train is late.", "0161 496 0732"),
    ("My personal inbox is tove.arnesen@mailbox.example.", "tove.arnesen@mailbox.example"),
    ("Send the invoice to tove dot arnesen at fjordpost dot net.", "fjordpost"),
    ("We just moved to 88 Larch Crescent, near the river.", "88 Larch Crescent"),
    ("Our cabin is at 12 Bramble Lane in the hills.", "12 Bramble Lane"),
    ("My landline is 020 7946 0018.", "7946 0018"),
    ("Ring me on seven seven zero, four one two, eight eight three nine.", "eight eight three nine"),
    ("My zip code is 30318.", "30318"),
    ("Post anything for me to PO Box 5521.", "5521"),
    ("I'm in flat 9C at the old mill building.", "flat 9C"),
    # credentials, codes, account and ID numbers
    ("The PIN on my savings card is 6604.", "6604"),
    ("The wifi at the cottage uses the password heron-lake-31.", "heron-lake-31"),
    ("My locker combination is 22-08-14.", "22-08-14"),
    ("The code for the back door keypad is 5-2-7-3.", "5-2-7-3"),
    ("I sign into the tax portal with password Marigold!88.", "Marigold!88"),
    ("My online banking passcode is 773019.", "773019"),
    ("The alarm code for the shop is four one one seven.", "four one one seven"),
    ("My recovery phrase starts with 'velvet orbit canyon'.", "velvet orbit canyon"),
    ("My library card number is 2900 4471 8832.", "2900 4471 8832"),
    ("My driver's licence number is D4471-88213.", "D4471-88213"),
    ("My national insurance number is QQ 12 34 56 C.", "QQ 12 34 56 C"),
    ("My credit card number is 5555 5555 5555 4444.", "5555 5555 5555 4444"),
    ("The verification code they texted me was 381 902.", "381 902"),
    ("My employee ID is 77-40921.", "77-40921"),
    ("My username for the forum is quietotter_19.", "quietotter_19"),
    ("I unlock my phone with the passcode 250913.", "250913"),
    ("The padlock on the bike shed is set to 6-6-2-1.", "6-6-2-1"),
    ("My mother's maiden name is Haldane.", "Haldane"),
    ("The answer to my secret question is Bramblewick.", "Bramblewick"),
    ("My first pet's name was Turnip.", "Turnip"),
    ("My API token is tok_9fXq27LmZp41RtVb83Kw.", "tok_9fXq27LmZp41RtVb83Kw"),
    ("My account number at the credit union is 00418827.", "00418827"),
    ("The door code at my mum's flat is 40 71.", "40 71"),
    # health
    ("I was diagnosed with Crohn's disease in my twenties.", "Crohn's"),
    ("I'm on lithium for my bipolar disorder.", "bipolar"),
    ("I had a miscarriage in the spring.", "miscarriage"),
    ("I've been seeing a psychiatrist since the divorce.", "psychiatrist"),
    ("My HIV test came back positive.", "HIV"),
    ("I use an inhaler because of my asthma.", "asthma"),
    # sexuality, religion, politics, ethnicity
    ("I told my coworkers that I'm gay.", "gay"),
    ("My partner is a trans woman.", "trans woman"),
    ("We keep kosher at home.", "kosher"),
    ("I converted to Buddhism last year.", "Buddhism"),
    ("I volunteer for the Labour campaign every election.", "Labour"),
    ("My grandparents are of Armenian descent.", "Armenian descent"),
    # finances and debts
    ("I still owe the dentist $1,400.", "1,400"),
    ("We're two months behind on the mortgage.", "behind on the mortgage"),
    ("My take-home pay is about 3,100 euros a month.", "3,100"),
    ("I took out a payday loan to cover the car repair.", "payday loan"),
    ("My credit score dropped to 540.", "credit score"),
    ("I still owe my sister 2,500 pounds.", "2,500"),
    # recovery and addiction
    ("I've been going to Alcoholics Anonymous since March.", "Alcoholics Anonymous"),
    ("I relapsed last weekend after six months sober.", "relapsed"),
    ("My NA sponsor is the only one who knows.", "NA sponsor"),
    ("I spent three weeks in detox last winter.", "detox"),
    # legal and immigration status, biometrics, birth dates
    ("I was convicted of shoplifting when I was nineteen.", "convicted"),
    ("I'm on parole until next autumn.", "parole"),
    ("My visa status is still pending.", "visa status"),
    ("My asylum hearing is next Tuesday.", "asylum"),
    ("I was born on 2 November 1987.", "2 November 1987"),
    ("My date of birth is 30/06/1979.", "30/06/1979"),
    ("My blood type is AB positive.", "AB positive"),
    ("They scanned my fingerprints at the border.", "fingerprints"),
    ("My genetic test showed a BRCA1 mutation.", "BRCA1"),
    ("My childhood best friend was called Pim.", "Pim"),
]

PUBLIC: list[tuple[str, str | None]] = [
    ("I finally watched the new documentary about Antarctica.", "Antarctica"),
    ("We drove the Volvo XC40 up to the lake.", "Volvo XC40"),
    ("The Rijksmuseum was packed on Saturday.", "Rijksmuseum"),
    ("I'm reading a novel by Ursula K. Le Guin.", "Ursula K. Le Guin"),
    ("My nephew loves the Lego set he got.", "Lego"),
    ("The bakery on the corner sells great rye bread.", None),
    ("I switched my browser to Opera.", "Opera"),
    ("We saw a production of Hamlet at the Globe.", "Hamlet"),
    ("The match ended 2-2 after extra time.", None),
    ("My train leaves at 7:15 tomorrow.", None),
    ("I bought a Kindle Paperwhite for the trip.", "Kindle Paperwhite"),
    ("The recipe needs 250 grams of flour.", None),
    ("I started learning the cello in September.", None),
    ("We hiked part of the Camino de Santiago.", "Camino de Santiago"),
    ("The Embraer 190 was quieter than I expected.", "Embraer 190"),
    ("My garden finally has tomatoes.", None),
    ("I upgraded my laptop to Ubuntu 24.04.", "Ubuntu"),
    ("The error code on the printer was E-04.", None),
    ("I joined a pottery class at the community centre.", None),
    ("Our book club picked Middlemarch this month.", "Middlemarch"),
    ("The concert at the Royal Albert Hall sold out.", "Royal Albert Hall"),
    ("I tried the ramen place near Shibuya station.", "Shibuya"),
    ("We adopted a rescue greyhound.", None),
    ("The marathon route passes the old harbour.", None),
    ("I use Notion to plan my week.", "Notion"),
    ("The Tour de France went through our village.", "Tour de France"),
    ("My favourite painter is Hilma af Klint.", "Hilma af Klint"),
    ("I painted the kitchen a pale green.", None),
    ("We watched the Geminid meteor shower from the roof.", "Geminid meteor shower"),
    ("The recovery of the old canal took ten years.", None),
    ("I replaced the battery in my Casio watch.", "Casio"),
    ("The conference in Lisbon runs for three days.", "Lisbon"),
    ("The password reset email went to spam again.", None),
    ("I picked up a Fender Stratocaster second-hand.", "Fender Stratocaster"),
    ("My flight to Reykjavik was delayed by two hours.", "Reykjavik"),
]
