"""An invented privacy corpus: what Maya (made up) tells an assistant, and what must stay inside dmem.

``PERSONAL``: (sentence, kind the detector must report, a value that must never reach a knowledge
source). ``NOT_PERSONAL``: sentences that look close but hold no personal data, with the entity an
external lookup may legitimately carry (None: no lookup at all).
"""

from __future__ import annotations

PERSONAL: list[tuple[str, str, str]] = [
    # contact details
    ("My email is maya.lind@example.com.", "e-mail address", "maya.lind@example.com"),
    ("You can write to me at maya (at) lindqvist (dot) org.", "e-mail address", "lindqvist"),
    ("My work address is m.lind at harbourlabs dot io.", "e-mail address", "harbourlabs"),
    ("My phone number is +1 (555) 867-5309.", "phone number", "867-5309"),
    ("My cell is five five five, two one four, nine nine eight seven.", "phone number", "nine nine eight"),
    ("Call me on double five five, oh one two three four five.", "phone number", "oh one two"),
    ("I live at 42 Elm Street in Springfield.", "street address", "Elm Street"),
    ("We moved into apartment 4B on Rosewood Close.", "street address", "Rosewood"),
    ("My new flat is at 17 Rue des Lilas in Lyon.", "street address", "Lilas"),
    ("My postcode is SW1A 2AA.", "street address", "SW1A"),
    ("My mailing address is PO Box 3381.", "street address", "3381"),
    # credentials and account numbers
    ("My bank PIN is 482913.", "PIN or code", "482913"),
    ("The PIN for my debit card is four eight two one.", "PIN or code", "four eight two one"),
    ("Our wifi password is sunflower42.", "password or key", "sunflower42"),
    ("My email password is 'Harbour!2020'.", "password or key", "Harbour!2020"),
    ("My API key is sk-proj-AbC123dEf456GhI789jKl.", "password or key", "AbC123dEf456"),
    ("My garage door code is 7 7 3 1.", "PIN or code", "7 7 3 1"),
    ("My GitHub token is ghp_abcdefghijklmnopqrstuvwxyz0123456789.", "API key or token", "ghp_"),
    ("My username on the clinic portal is maya_lind88.", "password or key", "maya_lind88"),
    ("My card number is 4111 1111 1111 1111.", "account or ID number", "4111"),
    ("My IBAN is DE89 3704 0044 0532 0130 00.", "account or ID number", "DE89"),
    ("My social security number is 123-45-6789.", "account or ID number", "123-45-6789"),
    ("My passport number is X12345678.", "account or ID number", "X12345678"),
    # special categories
    ("I was diagnosed with type 2 diabetes last spring.", "health", "diabetes"),
    ("I see a therapist every Tuesday for my anxiety.", "health", "anxiety"),
    ("I am pregnant with my second child.", "health", "pregnant"),
    ("I take medication for my epilepsy.", "health", "epilepsy"),
    ("I came out as bisexual to my parents last year.", "sexual orientation or gender identity", "bisexual"),
    ("I am in a same-sex marriage.", "sexual orientation or gender identity", "same-sex"),
    ("I am a practising Muslim and I pray five times a day.", "religion", "Muslim"),
    ("I go to church every Sunday.", "religion", "church"),
    ("I fast during Ramadan.", "religion", "Ramadan"),
    ("My salary is $85,000 a year.", "finances", "85,000"),
    ("I am drowning in credit card debt.", "finances", "debt"),
    ("I declared bankruptcy in 2019.", "finances", "bankruptcy"),
    ("I am of Korean descent.", "ethnicity", "Korean"),
    ("I identify as Latina.", "ethnicity", "Latina"),
    ("I voted for the Green Party in the last election.", "political views", "Green Party"),
    ("I am a socialist and a union member.", "political views", "socialist"),
    ("I uploaded my DNA to a genealogy site.", "biometric or genetic data", "DNA"),
    ("My blood type is O negative.", "biometric or genetic data", "O negative"),
    ("I unlock my laptop with my fingerprint.", "biometric or genetic data", "fingerprint"),
    ("I was born on 14 March 1991.", "date of birth", "1991"),
    ("My birthday is on the 3rd of June.", "date of birth", "3rd of June"),
    ("I was arrested for a DUI in 2015.", "criminal record", "DUI"),
    ("I am still waiting for my green card.", "immigration status", "green card"),
]

NOT_PERSONAL: list[tuple[str, str | None]] = [
    ("I adopted a cat named Pixel.", None),
    ("I drive a Tesla Model 3.", "Tesla Model 3"),
    ("I keep my passwords in a password manager.", None),
    ("My team upgraded to Python 3.12.1.", None),
    ("I ran 5 km in 28 minutes.", None),
    ("My sister is a nurse.", None),
    ("I visited the Prado in Madrid.", "Madrid"),
    ("My flight lands at 10:45.", None),
    ("I disabled notifications on my phone.", None),
    ("I ran a race on Sunday.", None),
    ("My birthday is in May.", None),
    ("I finished the marathon in 3:41:20.", None),
    ("I have two kids, one is nine and one is seven.", None),
    ("I voted for the best cake at the fair.", None),
    ("The new season of my favourite show came out last week.", None),
]
