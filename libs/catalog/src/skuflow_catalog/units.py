"""Units of measure as catalogs print them (metric and imperial, electrical, data, areas and
volumes, Russian and Chinese): one vocabulary for measurements in cells ('500 ml', '3,5 кВт') and
units in column headers ('Вес, кг', 'Flash（KB）'). A regex alternation, matched case-insensitively."""

UNITS = (r"mm|cm|dm|m|mt|km|m2|m²|m3|m³|in|inch|ft|mil|µm|um|nm|kg|g|mg|t|ton|tons|lb|lbs|oz|"
         r"ml|l|lt|lts|cl|dl|gal|v|kv|mv|w|kw|mw|a|ma|ah|mah|wh|kwh|hz|khz|mhz|ghz|"
         r"b|kb|mb|gb|tb|kbit|mbit|gbit|bit|bits|byte|bytes|kbyte|mbyte|kbps|mbps|gbps|dmips|mips|"
         r"ω|ohm|kω|mω|°|°c|°f|%|bar|psi|pa|kpa|mpa|n|rpm|db|lm|lx|k|pcs|pc|kg/db|"
         r"тонн|т|шт|мм|см|м|кг|г|мл|л|в|вт|квт|а|гц|"
         r"寸|升|毫升|厘米|毫米|米|克|千克|公斤|瓦|伏|安|个|件|只|套|片|支|条")
